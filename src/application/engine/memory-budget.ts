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
 */
export class MemoryBudget {
  private usedBytes = 0
  private waiting: (() => void)[] = []
  /** Times a consumer paused for the budget. */
  pauses = 0

  constructor(readonly capacityBytes: number) {}

  get used(): number {
    return this.usedBytes
  }

  get full(): boolean {
    return this.usedBytes >= this.capacityBytes
  }

  /** Room for catch-up growth: under half the budget in use. */
  get roomToGrow(): boolean {
    return this.usedBytes < this.capacityBytes / 2
  }

  take(bytes: number): void {
    this.usedBytes += bytes
  }

  give(bytes: number): void {
    this.usedBytes = Math.max(0, this.usedBytes - bytes)
    if (!this.full && this.waiting.length > 0) {
      const woken = this.waiting
      this.waiting = []
      for (const wake of woken) wake()
    }
  }

  /** `wake` once the budget is no longer full (at once if it is not). */
  whenRoom(wake: () => void): void {
    if (!this.full) wake()
    else this.waiting.push(wake)
  }
}

/** No budget: nothing is ever full (a host's tests, the harnesses). */
export const unlimitedBudget = (): MemoryBudget => new MemoryBudget(Number.POSITIVE_INFINITY)
