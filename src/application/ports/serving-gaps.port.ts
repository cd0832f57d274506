import type { Instant } from '../../domain/instant.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { PairBreach } from '../../domain/serving-window.js'

/** Serving rows a day's link rows call for (serving-copies.ts) and the serving tables lack. */
export interface ServingGap {
  readonly views: readonly ServingViewRow[]
  readonly sessions: readonly ServingSessionRow[]
}

/** Views outside the producers' assumptions that need the other fact to be told, by reason. */
export type PairBreaches = Readonly<Record<PairBreach, number>>

/**
 * What the serving step should have written for a UTC day, computed by the store from its link
 * tables as the backfill does, less what the serving tables hold: normally nothing. Failures throw
 * a StoreError.
 */
export interface ServingGaps {
  /**
   * At most `limit` view rows and `limit` session rows missing for the view and session links of
   * `day` whose facts were stored before `storedBefore` (a batch still in its serving step is not a gap).
   */
  missing(day: DayNumber, limit: number, storedBefore: Instant): Promise<ServingGap>
  /** The views of `day` stored before `storedBefore` that break an assumption only both facts tell (serving-window.ts). */
  breaches(day: DayNumber, storedBefore: Instant): Promise<PairBreaches>
}
