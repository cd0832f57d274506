import type { LagObserver } from '../ops/lag-monitor.js'
import type { BrokerRecord, TopicPartition } from '../ports/broker.port.js'
import type { PartitionLag } from '../ports/consumer-lag.port.js'

/**
 * How many records of its source topic one consumer still has to read on the partitions this
 * instance owns, as far as it knows: per partition, the group's lag at the last read less what the
 * engine took from it since. The group's lag covers every member's partitions: another instance's
 * backlog must not grow this one's batches. A partition counts as owned once a record of it was
 * taken, and no longer once it is revoked. Between reads the figure only falls; new arrivals count
 * from the next read on.
 */
export class SourceBacklog {
  private readonly lag = new Map<number, number>()
  private readonly takenSinceRead = new Map<number, number>()
  private readonly owned = new Set<number>()

  constructor(readonly source: string) {}

  read(lags: readonly PartitionLag[]): void {
    this.lag.clear()
    this.takenSinceRead.clear()
    for (const l of lags) if (l.topic === this.source) this.lag.set(l.partition, l.lag)
  }

  taken(records: readonly BrokerRecord[]): void {
    for (const r of records) {
      if (r.topic !== this.source) continue
      this.owned.add(r.partition)
      this.takenSinceRead.set(r.partition, (this.takenSinceRead.get(r.partition) ?? 0) + 1)
    }
  }

  revoked(partitions: readonly TopicPartition[]): void {
    for (const p of partitions) if (p.topic === this.source) this.owned.delete(p.partition)
  }

  get behind(): number {
    let behind = 0
    for (const p of this.owned) behind += Math.max(0, (this.lag.get(p) ?? 0) - (this.takenSinceRead.get(p) ?? 0))
    return behind
  }
}

/** The lag monitor's reads, handed to each consumer's SourceBacklog. */
export class BacklogBoard implements LagObserver {
  private readonly backlogs = new Map<string, SourceBacklog>()

  of(consumer: string, source: string): SourceBacklog {
    const b = new SourceBacklog(source)
    this.backlogs.set(consumer, b)
    return b
  }

  observed(consumer: string, lags: readonly PartitionLag[]): void {
    this.backlogs.get(consumer)?.read(lags)
  }
}
