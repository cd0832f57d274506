import type { DateRange, HierarchyFilter, Period, ReadModel, SessionTotals, StageCounts, ViewTotals } from '../../application/ports/read-model.port.js'
import { DIM_TABLE, type UpperLevel } from '../../domain/dimension-upsert.js'
import { FUNNEL_STAGES, type FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { ViewFactRow } from '../../domain/view-fact.js'
import { mergeViews } from '../../domain/view-merge.js'
import { latestBy, type InMemoryTables } from './in-memory-tables.js'

/** The read side computed the way the ClickHouse queries do: argMax by IngestionTime, uniq per stage, views merged. */
export class InMemoryReadModel implements ReadModel {
  constructor(private readonly tables: InMemoryTables) {}

  async sessionTotals(developerId: Guid, period: Period): Promise<SessionTotals> {
    const sessionIds = new Set(this.viewsOf(developerId, period).map((v) => v.sessionId))
    const facts = this.tables.of('session_facts').filter((r) => sessionIds.has(r.fact.row.sessionId))
    const sessions = [...latestBy(facts, (r) => r.fact.row.sessionId, (r) => r.ingestionTime).values()].map((r) => r.fact.row)
    const durations = sessions.map((s) => s.durationSeconds)
    return {
      sessions: sessions.length,
      guestSessions: sessions.filter((s) => s.viewerKind === 'Guest').length,
      userSessions: sessions.filter((s) => s.viewerKind === 'User').length,
      totalDurationSeconds: durations.reduce((a, b) => a + b, 0),
      // reduce, not Math.min(...xs): a spread of many sessions overflows the call stack
      minDurationSeconds: durations.length ? durations.reduce((a, b) => Math.min(a, b)) : 0,
      maxDurationSeconds: durations.reduce((a, b) => Math.max(a, b), 0),
    }
  }

  async viewTotals(developerId: Guid, period: Period): Promise<ViewTotals> {
    const views = this.viewsOf(developerId, period)
    const closed = views.filter((v) => v.isClosed)
    return {
      views: views.length,
      closedViews: closed.length,
      totalViewSeconds: closed.reduce((sum, v) => sum + (v.durationSeconds ?? 0), 0),
    }
  }

  async dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    const wanted = new Set<string>(ids)
    const rows = this.tables.of(DIM_TABLE[level]).filter((r) => wanted.has(r.fact.row.id))
    return new Map([...latestBy(rows, (r) => r.fact.row.id, (r) => r.fact.row.version).values()].map((r) => [r.fact.row.id, r.fact.row.name]))
  }

  async funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    const keys = new Map<FunnelStage, Set<string>>(FUNNEL_STAGES.map((s) => [s, new Set()]))
    for (const { fact } of this.tables.of('funnel_daily')) {
      const row = fact.row
      if (row.developerId !== developerId || row.eventDate < range.fromDate || row.eventDate > range.toDate) continue
      if (!matches(row, filter)) continue
      keys.get(row.stage)?.add(row.businessKey)
    }
    return Object.fromEntries(FUNNEL_STAGES.map((s) => [s, keys.get(s)?.size ?? 0])) as StageCounts
  }

  /** The developer's views in the period, each one merged row (its developer and time decide). */
  private viewsOf(developerId: Guid, period: Period): ViewFactRow[] {
    const merged = mergeViews(
      this.tables.of('property_object_view_facts'),
      (r) => r.fact.row.propertyObjectViewId,
      // the rank as the store keeps it: IngestionTime in whole seconds
      (r) => ({ isClosed: r.fact.row.isClosed, ingestionSecond: Math.floor(r.ingestionTime / 1000), factId: r.fact.row.factId }),
    )
    return [...merged.values()]
      .map((r) => r.fact.row)
      .filter((v) => v.developerId === developerId && v.eventTime >= period.from && v.eventTime < period.to)
  }
}

const matches = (row: Required<HierarchyFilter>, filter: HierarchyFilter): boolean =>
  (Object.keys(filter) as (keyof HierarchyFilter)[]).every((k) => filter[k] === undefined || filter[k] === row[k])
