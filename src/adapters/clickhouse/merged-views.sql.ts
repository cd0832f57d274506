import type { Period } from '../../application/ports/read-model.port.js'
import type { Guid } from '../../domain/guid.js'
import { ident, int, sql, uuid, type SqlFragment } from './sql-fragment.js'

/** DateTime has whole seconds: a period bound is taken as the first whole second at or after it. */
export const seconds = (ms: number) => int(Math.ceil(ms / 1000))

/**
 * The developer's views in the period, one row per PropertyObjectViewId, open and closed facts
 * merged as domain/view-merge.ts says: the winner is argMax by (IsClosed, IngestionTime, FactId)
 * and the view's developer and time are the winner's. Columns: PropertyObjectViewId, SessionId,
 * IsClosed, DurationSeconds (0 for an open view). The inner IN uses the primary key
 * (DeveloperId first); it can only widen the candidates, the outer WHERE decides. Never FINAL.
 */
export const mergedViews = (database: string, developerId: Guid, period: Period): SqlFragment => {
  const table = sql`${ident(database)}.property_object_view_facts`
  const inPeriod = (column: SqlFragment) =>
    sql`${column} >= toDateTime(${seconds(period.from)}, 'UTC') AND ${column} < toDateTime(${seconds(period.to)}, 'UTC')`
  return sql`
    SELECT PropertyObjectViewId, w.1 AS SessionId, w.2 AS IsClosed, w.3 AS DurationSeconds
    FROM (
      SELECT PropertyObjectViewId,
             argMax(tuple(SessionId, IsClosed, ifNull(DurationSeconds, 0), DeveloperId, EventTime),
                    tuple(IsClosed, IngestionTime, FactId)) AS w
      FROM ${table}
      PREWHERE PropertyObjectViewId IN (
        SELECT PropertyObjectViewId FROM ${table}
        WHERE DeveloperId = ${uuid(developerId)} AND ${inPeriod(sql`EventTime`)})
      GROUP BY PropertyObjectViewId)
    WHERE w.4 = ${uuid(developerId)} AND ${inPeriod(sql`w.5`)}`
}
