import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { SessionTotals, ViewTotals } from '../../domain/session-totals.js'
import { PortError } from './retriable.js'

/** Half-open [from, to) interval of event time. */
export interface Period {
  readonly from: Instant
  readonly to: Instant
}

/** Inclusive range of UTC calendar days, YYYY-MM-DD. */
export interface DateRange {
  readonly fromDate: string
  readonly toDate: string
}

export type { SessionTotals, ViewTotals }

/** A developer's sessions in a period and the views behind them, answered by one read. */
export interface SessionMetricsTotals {
  readonly sessions: SessionTotals
  readonly views: ViewTotals
}

/**
 * The levels a funnel read can be narrowed to, declared once: the filter's type, the stores'
 * conditions and the read cache's key all derive from it, so a new level cannot be left out of one.
 */
export const HIERARCHY_FILTER_FIELDS = ['projectId', 'buildingId', 'layoutGroupId', 'layoutId', 'propertyObjectId'] as const

export type HierarchyFilterField = (typeof HIERARCHY_FILTER_FIELDS)[number]

export type HierarchyFilter = { readonly [K in HierarchyFilterField]?: Guid }

export type StageCounts = Readonly<Record<FunnelStage, number>>

/**
 * Read side over the facts. Sessions are those that viewed the developer's property objects in
 * the period (view facts ∩ session facts), duration per session by argMax(IngestionTime); funnel
 * stages by uniqMerge. View facts are read merged per view (domain/view-merge.ts): a view's
 * developer, time and duration come from its winning row. Never FINAL. The developer id is required: scoping is never optional here.
 */
export interface ReadModel {
  /** The sessions and the views behind them (open and closed facts of a view counted as one), in one call. */
  sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals>
  /** Display names of a level's ids, latest version per id (argMax by Version); an unknown id is absent, a nameless one null. */
  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>>
  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts>
  /**
   * The unfiltered funnels of many developers in one read, each equal to `funnelCounts(id, range, {})`;
   * every asked id is in the answer. Optional: where a store has it, concurrent unfiltered funnel
   * reads of one range are gathered into it (application/read/gathered-reads.ts).
   */
  funnelCountsOfDevelopers?(developerIds: readonly Guid[], range: DateRange): Promise<ReadonlyMap<Guid, StageCounts>>
}

/** The store ended a read that ran past its time limit: the caller may ask again later. */
export class ReadTimedOut extends PortError {
  constructor(readonly seconds: number, cause?: unknown) {
    super(`the read ran past its ${seconds} s limit`, true, { cause })
    this.name = 'ReadTimedOut'
  }
}

/** As many reads as allowed already run and as many wait: this one is refused rather than queued. */
export class ReadsOverloaded extends PortError {
  constructor(readonly running: number, readonly waiting: number) {
    super(`${running} reads running and ${waiting} waiting: refused`, true)
    this.name = 'ReadsOverloaded'
  }
}
