import { developerWrites } from '../../domain/developer-writes.js'
import { dayOf, dayText, SESSION_LINK_MAX_DAYS } from '../../domain/serving-links.js'
import { PAIR_BREACHES, type PairBreach } from '../../domain/serving-window.js'
import type { Clock } from '../ports/clock.port.js'
import type { Logger } from '../ports/logger.port.js'
import type { PairBreaches, ServingGaps } from '../ports/serving-gaps.port.js'
import type { ServingIndex } from '../ports/serving-index.port.js'
import { PeriodicPass } from './periodic-pass.js'

/** Today and the two UTC days before it, every pass: what a replica held back or failed over may have missed. */
export const RECONCILED_DAYS = 3

/** Rows written per round; a day with more missing takes more rounds. */
export const RECONCILE_ROUND_ROWS = 10_000

/** Facts stored this recently may still be in their batch's serving step (retried through an outage): not gaps yet. */
export const RECONCILE_SETTLE_MS = 10 * 60_000

/** Rounds per day and pass: rows that do not become visible after being written (a replica behind) wait for the next pass. */
const MAX_ROUNDS = 20

export interface Repaired {
  readonly views: number
  readonly sessions: number
}

/** Told of each round's repairs, and of each pass's breaches over its days. */
export interface ReconciliationObserver {
  repaired(r: Repaired): void
  breaches(b: PairBreaches): void
}

const unobserved: ReconciliationObserver = { repaired: () => undefined, breaches: () => undefined }

/**
 * The EventTime days a pass at `now` reconciles: the last RECONCILED_DAYS, and one older day of the
 * lateness window (facts may arrive `latenessDays` after their EventTime) in turn, chosen by the
 * interval `now` falls in: each older day once every `latenessDays − 2` intervals while it is in
 * the window, however often instances restart.
 */
export const reconciledDays = (now: number, intervalMs: number, latenessDays: number): number[] => {
  const today = dayOf(now)
  const recent = Array.from({ length: RECONCILED_DAYS }, (_, i) => today - RECONCILED_DAYS + 1 + i)
  const older = latenessDays + 1 - RECONCILED_DAYS
  if (older <= 0 || intervalMs <= 0) return recent
  const first = today - latenessDays
  const turn = Math.floor(now / intervalMs)
  return [first + ((((turn - first) % older) + older) % older), ...recent]
}

/**
 * Re-runs the serving step over the last days, as the backfill does, and writes only what is
 * missing: a serving row the ingest's lookups missed (on a replicated cluster, a lookup that left
 * out a replica that was down) is written within an interval, the
 * developer's write count raised after it so that no cached answer outlives it; a miss among facts
 * that arrived late, within the lateness window's turn of older days (reconciledDays). Then it
 * counts the last days' views outside the assumptions only both facts tell. Every instance runs it
 * (one worker of `start --workers N`), the first pass one interval after start; rows written twice
 * collapse like any redelivered row. A failed pass is logged and tried again at the next interval.
 */
export class ServingReconciliation extends PeriodicPass<Repaired> {
  constructor(
    private readonly gaps: ServingGaps,
    private readonly serving: ServingIndex,
    private readonly clock: Clock,
    private readonly logger: Logger,
    intervalMs: number,
    private readonly latenessDays: number,
    private readonly observer: ReconciliationObserver = unobserved,
    private readonly roundRows = RECONCILE_ROUND_ROWS,
  ) {
    super(intervalMs)
  }

  /** The rows written. */
  protected async runPass(): Promise<Repaired> {
    const now = this.clock.now()
    const today = dayOf(now)
    const storedBefore = now - RECONCILE_SETTLE_MS
    let views = 0
    let sessions = 0
    const breaches: Record<PairBreach, number> = { 'view-outside-session': 0, 'view-rows-apart': 0 }
    try {
      for (const day of reconciledDays(now, this.intervalMs, this.latenessDays)) {
        for (let round = 0; round < MAX_ROUNDS; round++) {
          const gap = await this.gaps.missing(day, this.roundRows, storedBefore)
          if (gap.views.length === 0 && gap.sessions.length === 0) break
          await this.serving.write(gap.views, gap.sessions)
          // a session row missing for a link on this day counts on every day its session's views can lie on
          const around = Array.from({ length: 2 * SESSION_LINK_MAX_DAYS + 1 }, (_, i) => day - SESSION_LINK_MAX_DAYS + i)
          await this.serving.written(developerWrites({ views: gap.views, sessions: gap.sessions.map((r) => ({ keyDeveloperId: r.keyDeveloperId, days: around })), funnel: [] }))
          views += gap.views.length
          sessions += gap.sessions.length
          this.observer.repaired({ views: gap.views.length, sessions: gap.sessions.length })
          this.logger.warn({ day: dayText(day), views: gap.views.length, sessions: gap.sessions.length }, 'serving rows the ingest missed written by the reconciliation')
          if (gap.views.length < this.roundRows && gap.sessions.length < this.roundRows) break
        }
        if (day <= today - RECONCILED_DAYS) continue
        const found = await this.gaps.breaches(day, storedBefore)
        for (const reason of PAIR_BREACHES) breaches[reason] += found[reason]
      }
      this.observer.breaches(breaches)
    } catch (e) {
      this.logger.warn({ err: e instanceof Error ? e.message : String(e), views, sessions }, 'serving reconciliation failed; tried again at the next interval')
      throw e
    }
    return { views, sessions }
  }
}
