import type { Instant } from '../../domain/instant.js'
import type { BrokerRecord, TopicPartition } from '../ports/broker.port.js'
import { recordBytes, unlimitedBudget, type MemoryBudget } from './memory-budget.js'

/** What the lot does when it fills up and when it has room again (pause/resume the retry topic). */
export interface ParkingGate {
  close(waiting: number): void
  open(waiting: number): void
}

/**
 * The record with key and value bytes of its own: a client hands over views of what it fetched
 * (a kafkajs fetch response, a librdkafka consume), and a copy waiting minutes would keep all of
 * it in memory.
 */
const detached = (r: BrokerRecord): BrokerRecord => ({
  ...r,
  // new Uint8Array(bytes) copies (a Buffer's slice would be a view again).
  key: r.key === null ? null : new Uint8Array(r.key),
  value: r.value === null ? null : new Uint8Array(r.value),
})

const keyOf = (r: BrokerRecord): string => `${r.topic}\u0000${r.partition}\u0000${r.offset}`

/**
 * Parked copies read back from the retry topic before they are due, waiting in memory. At
 * `capacity` the gate closes (the retry topic stops being fetched); once records fall due and
 * leave, it opens again. A batch already fetched when the gate closed is still held, so the lot
 * can exceed capacity by at most one broker batch.
 */
export class ParkingLot {
  /** By topic, partition and offset: a copy read again while it waits is not held twice. */
  private readonly waiting = new Map<string, { readonly record: BrokerRecord; readonly dueAt: Instant }>()
  private closed = false

  constructor(
    private readonly capacity: number,
    private readonly gate: ParkingGate,
    /** Parked copies count against the process's memory budget while they wait. */
    private readonly budget: MemoryBudget = unlimitedBudget(),
  ) {}

  get size(): number {
    return this.waiting.size
  }

  /** False when this copy (its offset) is already waiting: read again after a rejoin, it is not held twice. */
  hold(record: BrokerRecord, dueAt: Instant): boolean {
    const key = keyOf(record)
    if (this.waiting.has(key)) return false
    this.waiting.set(key, { record: detached(record), dueAt })
    this.budget.takeParked(recordBytes(record))
    if (!this.closed && this.waiting.size >= this.capacity) {
      this.closed = true
      this.gate.close(this.waiting.size)
    }
    return true
  }

  /** Takes out every record due at `now`. */
  takeDue(now: Instant): BrokerRecord[] {
    return this.takeOut((w) => w.dueAt <= now)
  }

  /** Forgets the records of revoked partitions: their new owner reads them again. */
  revoke(partitions: readonly TopicPartition[]): void {
    this.takeOut(({ record: r }) => partitions.some((p) => p.topic === r.topic && p.partition === r.partition))
  }

  /** Removes the waiting records that match (in the order they came), giving their bytes back. */
  private takeOut(matches: (w: { readonly record: BrokerRecord; readonly dueAt: Instant }) => boolean): BrokerRecord[] {
    const out: BrokerRecord[] = []
    for (const [key, w] of this.waiting) {
      if (!matches(w)) continue
      this.waiting.delete(key)
      out.push(w.record)
    }
    this.budget.giveParked(out.reduce((n, r) => n + recordBytes(r), 0))
    this.reopen()
    return out
  }

  private reopen(): void {
    if (this.closed && this.waiting.size < this.capacity) {
      this.closed = false
      this.gate.open(this.waiting.size)
    }
  }
}
