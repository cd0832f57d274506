import type { Logger } from '../ports/logger.port.js'
import type { StorePressure } from '../ports/store-pressure.port.js'
import { settleWithin } from '../settle-within.js'

/** Past this many active parts in a partition (2/3 of ClickHouse's delay threshold, 150), inserts grow. */
export const PARTS_PRESSURE_PEAK = 100

/** A read not answered within this long counts as failed (the last figure stays). */
export const PARTS_READ_TIMEOUT_MS = 3000

/**
 * The store's parts pressure as last read, every `intervalMs`: while some partition holds
 * PARTS_PRESSURE_PEAK active parts or more, every consumer inserts fewer, larger batches (the
 * catch-up growth), before the server delays or refuses inserts. A failed or late read keeps the
 * last figure. One read at a time: a tick while one is still out (a slow server) is skipped, so
 * slow reads never pile up on the store's connections.
 */
export class PartsPressure {
  private peak = 0
  private timer: NodeJS.Timeout | undefined
  private reading: Promise<void> | undefined
  private lastFailed = false

  constructor(
    private readonly store: StorePressure,
    private readonly logger: Logger,
    private readonly intervalMs = 5000,
    private readonly timeoutMs = PARTS_READ_TIMEOUT_MS,
    /** A read succeeded after one failed: the store answers again (StoreRecovery.answered). */
    private readonly answeredAgain: () => void = () => undefined,
  ) {}

  get high(): boolean {
    return this.peak >= PARTS_PRESSURE_PEAK
  }

  start(): void {
    this.timer ??= setInterval(() => void this.read(), this.intervalMs)
  }

  stop(): void {
    clearInterval(this.timer)
    this.timer = undefined
  }

  /** Reads the peak, or joins the read still out. */
  read(): Promise<void> {
    if (this.reading) return this.reading
    const out = this.store.activePartsPeak()
    // the guard holds until the store answers, even past the time limit: no second read meanwhile
    this.reading = out.then(() => undefined, () => undefined).finally(() => (this.reading = undefined))
    return this.update(out)
  }

  private async update(out: Promise<number>): Promise<void> {
    try {
      const was = this.high
      this.peak = await settleWithin(out, this.timeoutMs, () => {
        throw new Error(`no answer within ${this.timeoutMs} ms`)
      })
      if (this.high !== was) this.logger.warn({ activePartsPeak: this.peak }, this.high ? 'parts pressure: inserting fewer, larger batches' : 'parts pressure gone')
      if (this.lastFailed) this.answeredAgain()
      this.lastFailed = false
    } catch (e) {
      this.lastFailed = true
      this.logger.warn({ err: String(e) }, 'active parts not read')
    }
  }
}
