import type { Period } from '../../application/ports/read-model.port.js'
import type { Guid } from '../../domain/guid.js'
import { SESSION_LINK_MAX_DAYS } from '../../domain/serving-links.js'
import type { ReadTables } from './clickhouse-session.js'
import { int, sql, uuid, type SqlFragment } from './sql-fragment.js'

/** DateTime has whole seconds: a period bound is taken as the first whole second at or after it. */
export const seconds = (ms: number) => int(Math.ceil(ms / 1000))

/** Where a read of the developer's views and sessions comes from. */
export type ViewSessionSource = 'serving' | 'facts'

const inPeriod = (column: SqlFragment, period: Period) =>
  sql`${column} >= toDateTime(${seconds(period.from)}, 'UTC') AND ${column} < toDateTime(${seconds(period.to)}, 'UTC')`

const DAY_MS = 86_400_000
const widened = (period: Period, daysBefore: number, daysAfter: number): Period => ({ from: Math.max(0, period.from - daysBefore * DAY_MS), to: period.to + daysAfter * DAY_MS })

/**
 * How far from the period the serving rows a read needs can lie (domain/serving-links.ts): the
 * rows of a view are found within a day of each other's day (so at most two days apart), and a
 * session is linked to a view at most 32 days after its start (and an hour before it). Rows
 * outside are never needed, so a read skips the months they fill.
 */
const VIEW_ROWS_AROUND = (p: Period) => widened(p, 2, 2)
const SESSION_STARTS_AROUND = (p: Period) => widened(p, SESSION_LINK_MAX_DAYS + 2, 2)

/**
 * The developer's views in the period, one row per PropertyObjectViewId, open and closed facts
 * merged as domain/view-merge.ts says: the winner is argMax by (IsClosed, IngestionTime, FactId,
 * DeveloperId) and the view's developer and time are the winner's. Columns: PropertyObjectViewId,
 * SessionId, IsClosed, DurationSeconds (0 for an open view). The outer WHERE decides. Never FINAL.
 * - 'facts': property_object_view_facts, the definition (and the serving path's test oracle): the
 *   views with a row of the developer in the period, then every row of those views, since
 *   another developer's row of a view may be its winner.
 * - 'serving': developer_view_facts under the developer's key, which holds every row of each of
 *   its views whatever their developer (migration 0008), all within two days of one another: the
 *   developer's rows around the period in one scan.
 */
export const mergedViews = (tables: ReadTables, developerId: Guid, period: Period, source: ViewSessionSource): SqlFragment => {
  const dev = uuid(developerId)
  if (source === 'serving') {
    // The winner as the first row of its view in rank order (LIMIT 1 BY): the same row argMax picks,
    // at about half of 18.16's cost for argMax over tuples.
    return sql`
      SELECT PropertyObjectViewId, SessionId, IsClosed, DurationSeconds
      FROM (
        SELECT PropertyObjectViewId, SessionId, IsClosed, DurationSeconds, DeveloperId, EventTime
        FROM ${tables.table('developer_view_facts')}
        PREWHERE KeyDeveloperId = ${dev} AND ${inPeriod(sql`EventTime`, VIEW_ROWS_AROUND(period))}
        ORDER BY PropertyObjectViewId, IsClosed DESC, IngestionTime DESC, FactId DESC, DeveloperId DESC
        LIMIT 1 BY PropertyObjectViewId)
      WHERE DeveloperId = ${dev} AND ${inPeriod(sql`EventTime`, period)}`
  }
  return sql`
    SELECT PropertyObjectViewId, w.1 AS SessionId, w.2 AS IsClosed, w.3 AS DurationSeconds
    FROM (
      SELECT PropertyObjectViewId,
             argMax(tuple(SessionId, IsClosed, ifNull(DurationSeconds, 0), DeveloperId, EventTime),
                    tuple(IsClosed, IngestionTime, FactId, DeveloperId)) AS w
      FROM ${tables.table('property_object_view_facts')}
      PREWHERE PropertyObjectViewId IN (
        SELECT PropertyObjectViewId FROM ${tables.table('property_object_view_facts')} WHERE DeveloperId = ${dev} AND ${inPeriod(sql`EventTime`, period)})
      GROUP BY PropertyObjectViewId)
    WHERE w.4 = ${dev} AND ${inPeriod(sql`w.5`, period)}`
}

/**
 * Per session of those views its latest fact (argMax by IngestionTime, FactId deciding a tie the
 * same way on every store): `s.1` DurationSeconds, `s.2` ViewerKind, from every session_facts row
 * of those ids: the definition, kept as the test oracle (the serving rows: servingSessionMetrics).
 */
export const latestSessions = (tables: ReadTables, developerId: Guid, period: Period): SqlFragment => sql`
    SELECT SessionId, argMax(tuple(DurationSeconds, ViewerKind), tuple(IngestionTime, FactId)) AS s
    FROM ${tables.table('session_facts')} PREWHERE SessionId IN (SELECT SessionId FROM (${mergedViews(tables, developerId, period, 'facts')}))
    GROUP BY SessionId`

/**
 * Spec §8's session metrics of a period from the developer's serving rows in one pass over its
 * views (the heaviest part of a read: ranking every row of every view): the merged views' totals
 * and their distinct sessions, each session joined to its latest copy under the developer's key
 * (by IngestionTime, then FactId); a session without one counts its views, not itself. The
 * sessions are gathered as a set and joined one row each, not grouped with per-session counts:
 * a quarter less of 18.16's CPU where most views have sessions of their own (docs/performance.md).
 * No views: no session rows, so every total is 0. Columns: the fields of ViewTotals and SessionTotals.
 */
export const servingSessionMetrics = (tables: ReadTables, developerId: Guid, period: Period): SqlFragment => sql`
    SELECT any(Views) AS views, any(ClosedViews) AS closedViews, any(ViewSeconds) AS totalViewSeconds,
           sum(Found) AS sessions, sum(IsGuest) AS guestSessions, sum(IsUser) AS userSessions,
           sum(Duration) AS totalDurationSeconds, minIf(Duration, Found = 1) AS minDurationSeconds, maxIf(Duration, Found = 1) AS maxDurationSeconds
    FROM (
      SELECT Views, ClosedViews, ViewSeconds, arrayJoin(Sessions) AS SessionId
      FROM (
        SELECT count() AS Views, countIf(IsClosed = 1) AS ClosedViews, sum(DurationSeconds) AS ViewSeconds, groupUniqArray(SessionId) AS Sessions
        FROM (${mergedViews(tables, developerId, period, 'serving')}))) AS per_session
    ANY LEFT JOIN (
      SELECT SessionId, 1 AS Found, DurationSeconds AS Duration, ViewerKind = 'Guest' AS IsGuest, ViewerKind = 'User' AS IsUser
      FROM ${tables.table('developer_session_facts')}
      PREWHERE KeyDeveloperId = ${uuid(developerId)} AND ${inPeriod(sql`EventTime`, SESSION_STARTS_AROUND(period))}
      ORDER BY SessionId, IngestionTime DESC, FactId DESC
      LIMIT 1 BY SessionId) AS latest USING SessionId`
