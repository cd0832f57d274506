/** What the budget holds for one record: its key and value, and about this much for the rest (offsets, headers, the object). */
export const RECORD_OVERHEAD_BYTES = 256

/** Bytes one record takes from the budget. */
export const recordBytes = (r: { readonly key: Uint8Array | null; readonly value: Uint8Array | null }): number =>
  (r.key?.length ?? 0) + (r.value?.length ?? 0) + RECORD_OVERHEAD_BYTES

/**
 * One process's budget for the records it holds, shared by every consumer: bytes are taken when a
 * record is accepted (and when a parked copy is held) and given back when its batch is committed,
 * dead-lettered or parked, or the copy leaves the lot. Records already fetched are always taken
 * (they are in memory already); a consumer that finds the budget spent pauses its partitions until
 * it has room again (`whenRoom`), so the overshoot is at most one fetch per consumer.
 *
 * Spent at its capacity, it has room again only once the batches hold under half of what the parked
 * copies leave them: woken as soon as usage dipped below the capacity, every consumer would fetch
 * once, overshoot and pause again, each inserting a batch of one fetch. Parked copies leave only when
 * due (minutes), so the mark is set above them: copies filling half of the budget do not keep the
 * consumers paused until then.
 */
export class MemoryBudget {
  private usedBytes = 0
  private parkedBytes = 0
  private spent = false
  private waiting: (() => void)[] = []
  /** Times a consumer paused for the budget. */
  pauses = 0

  constructor(readonly capacityBytes: number) {}

  get used(): number {
    return this.usedBytes
  }

  /** From reaching the capacity until there is room again (the class comment). */
  get full(): boolean {
    return this.spent
  }

  /** Room for catch-up growth: under half the budget in use. */
  get roomToGrow(): boolean {
    return this.usedBytes < this.capacityBytes / 2
  }

  take(bytes: number): void {
    this.usedBytes += bytes
    if (this.usedBytes >= this.capacityBytes) this.spent = true
  }

  give(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes)
    if (this.spent && this.usedBytes - this.parkedBytes < (this.capacityBytes - this.parkedBytes) / 2) {
      this.spent = false
      const woken = this.waiting
      this.waiting = []
      for (const wake of woken) wake()
    }
  }

  /** A parked copy held in memory: taken like a record, and the room mark is set above it. */
  takeParked(bytes: number): void {
    this.parkedBytes += bytes
    this.take(bytes)
  }

  giveParked(bytes: number): void {
    this.parkedBytes = Math.max(0, this.parkedBytes - bytes)
    this.give(bytes)
  }

  /** `wake` once the budget has room again (at once if it is not full). */
  whenRoom(wake: () => void): void {
    if (!this.spent) wake()
    else this.waiting.push(wake)
  }
}

/** No budget: nothing is ever full (a host's tests, the harnesses). */
export const unlimitedBudget = (): MemoryBudget => new MemoryBudget(Number.POSITIVE_INFINITY)
