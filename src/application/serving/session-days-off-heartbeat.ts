import type { Logger } from '../ports/logger.port.js'
import { settleWithin } from '../settle-within.js'
import { PeriodicPass } from './periodic-pass.js'

/** How often an instance with the day summaries off records its mode again while it runs. */
export const SESSION_DAYS_OFF_INTERVAL_MS = 60_000

/** The stop's last record waits no longer than this for an unreachable store (then its request is ended). */
const LAST_RECORD_MS = 1_000

/**
 * An instance with DEV_STATS_SESSION_DAY_SUMMARIES off writes serving rows the day summaries miss:
 * it records that at start, again every interval while it runs, and once more as it stops, so a
 * summarizing backfill that ran while it was still writing does not count (`start` and `check`
 * with the summaries on refuse the store until a later one; docs/clickhouse.md, Day summaries).
 * A failed record is logged and tried again at the next interval.
 */
export class SessionDaysOffHeartbeat extends PeriodicPass<void> {
  constructor(
    private readonly record: (signal?: AbortSignal) => Promise<void>,
    private readonly logger: Logger,
    intervalMs = SESSION_DAYS_OFF_INTERVAL_MS,
  ) {
    super(intervalMs)
  }

  /** Stops the interval and records the mode a last time (bounded; a failure is logged). */
  async last(): Promise<void> {
    this.stop()
    const ended = new AbortController()
    const last = this.record(ended.signal).catch((e: unknown) => {
      if (!ended.signal.aborted) this.logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'day summaries off: last record failed')
    })
    await settleWithin(last, LAST_RECORD_MS, () => {
      ended.abort()
      this.logger.warn({ waitedMs: LAST_RECORD_MS }, 'day summaries off: last record not confirmed')
    })
  }

  protected async runPass(): Promise<void> {
    try {
      await this.record()
    } catch (e) {
      this.logger.warn({ err: e instanceof Error ? e.message : String(e) }, 'day summaries off: mode not recorded; tried again at the next interval')
      throw e
    }
  }
}
