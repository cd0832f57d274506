import type { LagObserver } from '../ops/lag-monitor.js'
import type { PartitionLag } from '../ports/consumer-lag.port.js'

/**
 * How many records of its source topic one consumer still has to read, as far as this instance
 * knows: the group's lag at the last read, less what the engine took since. Between reads it only
 * falls, so a consumer that caught up is seen as such before the next read; new arrivals count
 * from the next read on.
 */
export class SourceBacklog {
  private lag = 0
  private takenSinceRead = 0

  constructor(readonly source: string) {}

  read(lags: readonly PartitionLag[]): void {
    this.lag = lags.reduce((n, l) => (l.topic === this.source ? n + l.lag : n), 0)
    this.takenSinceRead = 0
  }

  taken(records: number): void {
    this.takenSinceRead += records
  }

  get behind(): number {
    return Math.max(0, this.lag - this.takenSinceRead)
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
