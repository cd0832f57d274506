/**
 * Batches being made durable at the same time, finished strictly in the order they were sealed:
 * each batch's inserts start at once, but its `finish` (mark done, commit) runs only after its
 * own durable work and every earlier batch's `finish`. A batch whose durable work fails is not
 * finished, and later commits cannot pass it: the offset tracker still holds its offsets pending.
 */
export class OrderedFlushes {
  private tail: Promise<void> = Promise.resolve()
  private readonly open: Promise<void>[] = []

  constructor(private readonly maxInFlight: number) {}

  get inFlight(): number {
    return this.open.length
  }

  /**
   * Starts `durable` now and queues `finish` after it; resolves once fewer than maxInFlight
   * batches are open (the caller's backpressure). Errors surface in `settled()`/`onError`.
   */
  async add(durable: Promise<void>, finish: () => Promise<void>, onError: (e: unknown) => void): Promise<void> {
    durable.catch(() => undefined)
    const done = this.tail.then(() => durable).then(finish).catch(onError)
    this.tail = done
    this.open.push(done)
    void done.finally(() => this.open.splice(this.open.indexOf(done), 1))
    while (this.open.length >= this.maxInFlight) await Promise.race(this.open)
  }

  /** Resolves when every batch added so far is finished (or failed). */
  settled(): Promise<void> {
    return this.tail
  }
}
