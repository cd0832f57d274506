import type { ClickHouseSettings } from '@clickhouse/client'
import { HIERARCHY_FILTER_FIELDS, type DateRange, type HierarchyFilter, type HierarchyFilterField, type Period, type ReadModel, type SessionMetricsTotals, type SessionTotals, type StageCounts, type ViewTotals } from '../../application/ports/read-model.port.js'
import { DIM_TABLE, type UpperLevel } from '../../domain/dimension-upsert.js'
import { FUNNEL_STAGES } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { latestSessions, mergedViews, servingSessionMetrics, type ViewSessionSource } from './merged-views.sql.js'
import { date, ident, join, sql, uuid, type SqlFragment } from './sql-fragment.js'
import { timeLimitedSelect } from './time-limited-select.js'

const FILTER_COLUMNS: Readonly<Record<HierarchyFilterField, string>> = {
  projectId: 'ProjectId',
  buildingId: 'BuildingId',
  layoutGroupId: 'LayoutGroupId',
  layoutId: 'LayoutId',
  propertyObjectId: 'PropertyObjectId',
}

/**
 * Dashboards send many small reads at once to a server with few cores: one thread per read keeps
 * them from competing for the cores. The key index is not used for IN (subquery): over the raw
 * facts a developer's candidate views and sessions are spread over every granule anyway, and on
 * 18.16 the index analysis costs about as much as the query; the serving tables' reads are
 * narrowed by their KeyDeveloperId prefix before any IN.
 */
const READ_SETTINGS: ClickHouseSettings = { max_threads: 1, use_index_for_in_with_subqueries: 0 }

/**
 * The read side as InMemoryReadModel computes it. Sessions: the SessionIds of the developer's
 * views in [from, to) (open and closed facts merged per view, merged-views.sql.ts), then per
 * SessionId the latest duration and viewer kind (argMax by IngestionTime, then FactId), so
 * re-inserted facts count once before and after merges. Funnel: uniqMerge per stage. Never FINAL.
 * Views, sessions and the unfiltered funnel come from the developer-keyed serving tables by
 * default (a read costs the developer's own data); `'facts'` reads the raw facts and funnel_daily:
 * the definition, kept as the test oracle.
 */
export class ClickHouseReadModel implements ReadModel {
  private readonly timeLimited: ReturnType<typeof timeLimitedSelect>

  constructor(
    private readonly session: ClickHouseSession,
    private readonly source: ViewSessionSource = 'serving',
    /** The server ends a read after this long (max_execution_time): ReadTimedOut. 0: no limit. */
    timeoutSeconds = 0,
  ) {
    this.timeLimited = timeLimitedSelect(session, timeoutSeconds)
  }

  private select<T>(fragment: SqlFragment): Promise<T[]> {
    return this.timeLimited<T>(fragment, READ_SETTINGS)
  }

  /** Serving rows: one query. Raw facts: the sessions' query and the views' query, in parallel. */
  async sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    const tables = await this.session.readTables()
    if (this.source === 'serving') {
      const [row] = await this.select<Record<keyof SessionTotals | keyof ViewTotals, string>>(servingSessionMetrics(tables, developerId, period))
      return { sessions: sessionTotalsOf(row), views: viewTotalsOf(row) }
    }
    const [sessions, views] = await Promise.all([
      this.select<Record<keyof SessionTotals, string>>(sql`
        SELECT count() AS sessions,
               countIf(s.2 = 'Guest') AS guestSessions,
               countIf(s.2 = 'User') AS userSessions,
               sum(s.1) AS totalDurationSeconds,
               min(s.1) AS minDurationSeconds,
               max(s.1) AS maxDurationSeconds
        FROM (${latestSessions(tables, developerId, period)})`),
      this.select<Record<keyof ViewTotals, string>>(sql`
        SELECT count() AS views, countIf(IsClosed = 1) AS closedViews, sum(DurationSeconds) AS totalViewSeconds
        FROM (${mergedViews(tables, developerId, period, this.source)})`),
    ])
    return { sessions: sessionTotalsOf(sessions[0]), views: viewTotalsOf(views[0]) }
  }

  async dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    const unique = [...new Set(ids)]
    const found = new Map<string, string | null>()
    const tables = await this.session.readTables()
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
      // the latest version's Name (a tuple keeps a NULL name from losing to an older non-NULL one)
      const rows = await this.select<{ Id: Guid; v: [string | null] }>(sql`
        SELECT Id, argMax(tuple(Name), Version) AS v
        FROM ${tables.table(DIM_TABLE[level])}
        WHERE Id IN (${join(unique.slice(i, i + IDS_PER_QUERY).map(uuid), ', ')})
        GROUP BY Id`)
      for (const r of rows) found.set(r.Id.toLowerCase(), r.v[0])
    }
    // under the caller's spelling of each id (the server's is lower case); an unknown id stays absent
    return new Map(unique.flatMap((id) => (found.has(id.toLowerCase()) ? [[id, found.get(id.toLowerCase()) ?? null] as const] : [])))
  }

  async funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    const conditions: SqlFragment[] = [
      sql`DeveloperId = ${uuid(developerId)}`,
      sql`EventDate >= ${date(range.fromDate)}`,
      sql`EventDate <= ${date(range.toDate)}`,
    ]
    for (const key of HIERARCHY_FILTER_FIELDS) {
      const value = filter[key]
      if (value !== undefined) conditions.push(sql`${ident(FILTER_COLUMNS[key])} = ${uuid(value)}`)
    }
    // unfiltered: one row per day of the developer (migration 0008), not one per property object and day
    const table = this.source === 'serving' && conditions.length === 3 ? 'funnel_developer_daily' : 'funnel_daily'
    const [row] = await this.select<Record<string, string>>(sql`
      SELECT ${STAGE_COUNTS}
      FROM ${(await this.session.readTables()).table(table)}
      WHERE ${join(conditions, ' AND ')}`)
    return stageCounts(row)
  }

  /** One query per IDS_PER_QUERY developers, grouped by developer; a developer without rows counts zero. */
  async funnelCountsOfDevelopers(developerIds: readonly Guid[], range: DateRange): Promise<ReadonlyMap<Guid, StageCounts>> {
    const table = this.source === 'serving' ? 'funnel_developer_daily' : 'funnel_daily'
    const unique = [...new Set(developerIds)]
    const found = new Map<string, StageCounts>()
    const tables = await this.session.readTables()
    for (let i = 0; i < unique.length; i += IDS_PER_QUERY) {
      const ids = unique.slice(i, i + IDS_PER_QUERY)
      const rows = await this.select<Record<string, string>>(sql`
        SELECT toString(DeveloperId) AS developerId, ${STAGE_COUNTS}
        FROM ${tables.table(table)}
        WHERE DeveloperId IN (${join(ids.map(uuid), ', ')})
          AND EventDate >= ${date(range.fromDate)} AND EventDate <= ${date(range.toDate)}
        GROUP BY DeveloperId`)
      for (const row of rows) found.set((row.developerId ?? '').toLowerCase(), stageCounts(row))
    }
    // the server spells UUIDs in lower case; a caller may not
    return new Map(unique.map((id) => [id, found.get(id.toLowerCase()) ?? stageCounts(undefined)]))
  }
}

/** Ids per name or gathered funnel query: its IN list stays far below the server's query size limit (18.16: 256 KiB). */
const IDS_PER_QUERY = 1000

// Aliases differ from the column names: an alias equal to its own argument is cyclic on old servers.
const STAGE_COUNTS = join(FUNNEL_STAGES.map((s) => sql`uniqMerge(${ident(s)}) AS ${ident(`n${s}`)}`), ', ')

const n = (v: string | undefined) => Number(v ?? 0)

const sessionTotalsOf = (row: Partial<Record<keyof SessionTotals, string>> | undefined): SessionTotals => ({
  sessions: n(row?.sessions),
  guestSessions: n(row?.guestSessions),
  userSessions: n(row?.userSessions),
  totalDurationSeconds: n(row?.totalDurationSeconds),
  minDurationSeconds: n(row?.minDurationSeconds),
  maxDurationSeconds: n(row?.maxDurationSeconds),
})

const viewTotalsOf = (row: Partial<Record<keyof ViewTotals, string>> | undefined): ViewTotals => ({
  views: n(row?.views), closedViews: n(row?.closedViews), totalViewSeconds: n(row?.totalViewSeconds),
})

const stageCounts = (row: Record<string, string> | undefined): StageCounts => Object.fromEntries(FUNNEL_STAGES.map((s) => [s, Number(row?.[`n${s}`] ?? 0)])) as StageCounts
