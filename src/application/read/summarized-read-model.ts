import type { Guid } from '../../domain/guid.js'
import { dayOf } from '../../domain/serving-links.js'
import { SPANNING_LOOKBACK_DAYS, totalsOfSummaries } from '../../domain/session-states.js'
import type { HierarchyFilter, DateRange, Period, ReadModel, SessionTotals, StageCounts, ViewTotals } from '../ports/read-model.port.js'
import type { SessionDaysIndex } from '../ports/session-days-index.port.js'
import type { UpperLevel } from '../../domain/dimension-upsert.js'

const DAY_MS = 86_400_000

/** What a read of whole days needs of the session-days index. */
export type SessionDaysReader = Pick<SessionDaysIndex, 'summaries' | 'spanning'>

/**
 * Session metrics of whole UTC days (the read API's periods) from the day summaries the ingest
 * keeps (domain/session-states.ts): a period's days' summaries plus the few sessions counted before
 * it with a view inside it, so a read costs its days and not the developer's sessions. Any other
 * period, and the funnel and names, are read by `inner` (the serving rows). Exact only over a
 * store whose every serving write went through SessionDaysServingIndex: composed with it when
 * DEV_STATS_SESSION_DAY_SUMMARIES is on (start refuses a store written without it until a backfill).
 */
export class SummarizedReadModel implements ReadModel {
  constructor(
    private readonly inner: ReadModel,
    private readonly days: SessionDaysReader,
  ) {}

  async sessionTotals(developerId: Guid, period: Period): Promise<SessionTotals> {
    const whole = wholeDays(period)
    return whole ? (await this.totals(developerId, whole.first, whole.last)).sessions : this.inner.sessionTotals(developerId, period)
  }

  async viewTotals(developerId: Guid, period: Period): Promise<ViewTotals> {
    const whole = wholeDays(period)
    return whole ? (await this.totals(developerId, whole.first, whole.last)).views : this.inner.viewTotals(developerId, period)
  }

  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    return this.inner.dimensionNames(level, ids)
  }

  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    return this.inner.funnelCounts(developerId, range, filter)
  }

  private async totals(developerId: Guid, first: number, last: number) {
    const [summaries, spanning] = await Promise.all([
      this.days.summaries(developerId, first, last),
      first > 0 ? this.days.spanning(developerId, Math.max(0, first - SPANNING_LOOKBACK_DAYS), first - 1) : Promise.resolve([]),
    ])
    return totalsOfSummaries(summaries, spanning, first, last)
  }
}

/** The UTC days [first, last] a period covers exactly, or undefined when it does not start and end at midnight. */
const wholeDays = (period: Period): { first: number; last: number } | undefined =>
  period.from % DAY_MS === 0 && period.to % DAY_MS === 0 && period.to > period.from && period.from >= 0 ? { first: dayOf(period.from), last: dayOf(period.to) - 1 } : undefined
