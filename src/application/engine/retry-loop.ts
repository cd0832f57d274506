import { backoffDelay, type BackoffPolicy } from './backoff.js'
import { StoreRecovery } from './store-recovery.js'

/** Thrown out of a retry loop when the engine is stopping: the batch is abandoned, not committed. */
export class Abandoned extends Error {}

export interface RetryHooks {
  /** Attempt `attempt` (from 1) failed; `retryInMs` is undefined when the loop gives up on it. */
  failed(what: string, e: unknown, attempt: number, retryInMs: number | undefined): void
  /** The loop ends (success or give-up) after at least one retried failure. */
  settled(what: string): void
}

/**
 * Runs work until it succeeds, sleeping 1 s → 60 s between attempts (kafkajs' retrier is the
 * model). `giveUp(e)` names errors retrying cannot fix: those are rethrown at once for the caller
 * to handle. stop() wakes a sleeping backoff at once and the loop throws Abandoned; the store
 * answering again (`recovery`, which work succeeding after a failure reports) wakes it to try now.
 */
export class StopAwareRetry {
  private stopping = false
  /** A failure seen while stopping: the store or broker is not answering, so nothing further is tried. */
  private failedWhileStopping = false
  private wake: () => void = () => undefined
  private readonly stopSignal = new Promise<void>((resolve) => (this.wake = resolve))

  constructor(
    private readonly policy: BackoffPolicy,
    private readonly hooks: RetryHooks,
    /** Shared by a process's engines (the store answering again wakes them all); by default this loop's own. */
    private readonly recovery: StoreRecovery = new StoreRecovery(),
  ) {}

  get stopped(): boolean {
    return this.stopping
  }

  stop(): void {
    this.stopping = true
    this.wake()
  }

  /**
   * While stopping, work is still tried once (a healthy store finishes the batches in flight), but
   * after one failure nothing more is: with the server silent each try waits for the request
   * timeout, and a lookup, then the open batch's insert, would each add one to the stop.
   */
  async run<T>(what: string, work: () => Promise<T>, giveUp: (e: unknown) => boolean = () => false): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      if (this.failedWhileStopping) throw new Abandoned(`${what} abandoned at shutdown`)
      try {
        const result = await work()
        if (attempt > 1) {
          this.hooks.settled(what)
          this.recovery.answered()
        }
        return result
      } catch (e) {
        if (this.stopping) {
          this.failedWhileStopping = true
          throw new Abandoned(`${what} abandoned at shutdown`)
        }
        if (giveUp(e)) {
          this.hooks.failed(what, e, attempt, undefined)
          if (attempt > 1) this.hooks.settled(what)
          throw e
        }
        const delay = backoffDelay(this.policy, attempt)
        this.hooks.failed(what, e, attempt, delay)
        await this.recovery.sleep(delay, this.stopSignal)
        if (this.stopping) throw new Abandoned(`${what} abandoned at shutdown`)
      }
    }
  }
}
