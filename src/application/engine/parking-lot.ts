import type { Instant } from '../../domain/instant.js'
import type { BrokerRecord, TopicPartition } from '../ports/broker.port.js'

/** Parked copies read back from the retry topic before they are due, waiting in memory. */
export class ParkingLot {
  private waiting: { readonly record: BrokerRecord; readonly dueAt: Instant }[] = []

  get size(): number {
    return this.waiting.length
  }

  hold(record: BrokerRecord, dueAt: Instant): void {
    this.waiting.push({ record, dueAt })
  }

  /** Takes out every record due at `now`. */
  takeDue(now: Instant): BrokerRecord[] {
    const due = this.waiting.filter((w) => w.dueAt <= now).map((w) => w.record)
    if (due.length > 0) this.waiting = this.waiting.filter((w) => w.dueAt > now)
    return due
  }

  /** Forgets the records of revoked partitions: their new owner reads them again. */
  revoke(partitions: readonly TopicPartition[]): void {
    const revoked = (r: BrokerRecord) => partitions.some((p) => p.topic === r.topic && p.partition === r.partition)
    this.waiting = this.waiting.filter((w) => !revoked(w.record))
  }
}
