import type { Logger } from '../ports/logger.port.js'
import type { StorePressure } from '../ports/store-pressure.port.js'

/** Past this many active parts in a partition (2/3 of ClickHouse's delay threshold, 150), inserts grow. */
export const PARTS_PRESSURE_PEAK = 100

/**
 * The store's parts pressure as last read, every `intervalMs`: while some partition holds
 * PARTS_PRESSURE_PEAK active parts or more, every consumer inserts fewer, larger batches (the
 * catch-up growth), before the server delays or refuses inserts. A failed read keeps the last figure.
 */
export class PartsPressure {
  private peak = 0
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly store: StorePressure,
    private readonly logger: Logger,
    private readonly intervalMs = 5000,
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

  async read(): Promise<void> {
    try {
      const was = this.high
      this.peak = await this.store.activePartsPeak()
      if (this.high !== was) this.logger.warn({ activePartsPeak: this.peak }, this.high ? 'parts pressure: inserting fewer, larger batches' : 'parts pressure gone')
    } catch (e) {
      this.logger.warn({ err: String(e) }, 'active parts not read')
    }
  }
}
