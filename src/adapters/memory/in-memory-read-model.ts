import { HIERARCHY_FILTER_FIELDS, type DateRange, type HierarchyFilter, type Period, type ReadModel, type SessionMetricsTotals, type StageCounts } from '../../application/ports/read-model.port.js'
import { DIM_TABLE, type UpperLevel } from '../../domain/dimension-upsert.js'
import { FUNNEL_STAGES, type FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { SessionLink, ViewLink } from '../../domain/serving-links.js'
import { developerViews, latestSessionFacts } from '../../domain/session-totals.js'
import { latestBy, type InMemoryTables } from './in-memory-tables.js'

/** Where views and sessions are read from: the serving rows (the default, as on ClickHouse) or the raw facts (the definition). */
export type InMemoryViewSessionSource = 'serving' | 'facts'

/** The read side computed the way the ClickHouse queries do: argMax by IngestionTime, uniq per stage, views merged. */
export class InMemoryReadModel implements ReadModel {
  constructor(
    private readonly tables: InMemoryTables,
    private readonly source: InMemoryViewSessionSource = 'serving',
  ) {}

  async sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    const views = this.viewsOf(developerId, period)
    const sessionIds = new Set<string>(views.map((v) => v.sessionId))
    // argMax by (IngestionTime, FactId), as ClickHouse reads it
    const sessions = [...latestSessionFacts(this.sessionFacts(developerId).filter((s) => sessionIds.has(s.sessionId))).values()]
    const durations = sessions.map((s) => s.durationSeconds)
    const closed = views.filter((v) => v.isClosed)
    return {
      sessions: {
        sessions: sessions.length,
        guestSessions: sessions.filter((s) => s.viewerKind === 'Guest').length,
        userSessions: sessions.filter((s) => s.viewerKind === 'User').length,
        totalDurationSeconds: durations.reduce((a, b) => a + b, 0),
        // reduce, not Math.min(...xs): a spread of many sessions overflows the call stack
        minDurationSeconds: durations.length ? durations.reduce((a, b) => Math.min(a, b)) : 0,
        maxDurationSeconds: durations.reduce((a, b) => Math.max(a, b), 0),
      },
      views: {
        views: views.length,
        closedViews: closed.length,
        totalViewSeconds: closed.reduce((sum, v) => sum + v.durationSeconds, 0),
      },
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
  private viewsOf(developerId: Guid, period: Period): ViewLink[] {
    return developerViews(developerId, this.viewRows(developerId)).filter((v) => v.eventTime >= period.from && v.eventTime < period.to)
  }

  /** Every row of the views the developer may own: its serving rows, or every raw view fact. */
  private viewRows(developerId: Guid): ViewLink[] {
    if (this.source === 'serving') return this.tables.serving.views.filter((r) => r.keyDeveloperId === developerId)
    return this.tables.of('property_object_view_facts').map(({ fact: { row }, ingestionTime }) => ({ ...row, durationSeconds: row.durationSeconds ?? 0, ingestionTime }))
  }

  /** The session facts a developer's sessions are read from: its serving copies, or every raw session fact. */
  private sessionFacts(developerId: Guid): SessionLink[] {
    if (this.source === 'serving') return this.tables.serving.sessions.filter((r) => r.keyDeveloperId === developerId)
    return this.tables.of('session_facts').map(({ fact: { row }, ingestionTime }) => ({ ...row, ingestionTime }))
  }
}

const matches = (row: Required<HierarchyFilter>, filter: HierarchyFilter): boolean =>
  HIERARCHY_FILTER_FIELDS.every((k) => filter[k] === undefined || filter[k] === row[k])
