/**
 * One per process, shared by every engine's retries: the store answering again ends their
 * backoffs. A sleep grown to its maximum (60 s) while the store was away would otherwise hold a
 * consumer up to a minute after the store came back (47–55 s after an 81 s ClickHouse fault in
 * the wire-fault soak). Answering again: a read of the parts pressure (every 5 s) that succeeds
 * after one failed, or an engine's work that succeeds after failing.
 */
export class StoreRecovery {
  private readonly sleepers = new Set<() => void>()

  /** Resolves after `ms`, when `stopped` resolves, or when the store answers again. */
  sleep(ms: number, stopped: Promise<void>): Promise<void> {
    return new Promise<void>((resolve) => {
      const wake = () => {
        if (!this.sleepers.delete(wake)) return
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(wake, ms)
      this.sleepers.add(wake)
      void stopped.then(wake)
    })
  }

  /** The store answered again: every sleeping retry tries now. */
  answered(): void {
    for (const wake of [...this.sleepers]) wake()
  }
}
