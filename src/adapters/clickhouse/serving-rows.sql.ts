import { dayText, type DayNumber } from '../../domain/serving-links.js'
import { date, ident, sql, type SqlFragment } from './sql-fragment.js'

/**
 * The serving rows the link rows of one UTC day call for, as the ingest writes them
 * (domain/serving-copies.ts): every view row of the day under every developer any row of its view
 * carries within a day of it, and every session fact linked on the day under the developer of
 * every view row naming its session on the day. One declaration for the backfill (which inserts
 * them) and the reconciliation (which writes those missing). `onlyRows` narrows the day's own
 * link rows (e.g. to facts stored before a time).
 */
export const servingViewRowsOf = (database: string, day: DayNumber, onlyRows: SqlFragment = sql``): SqlFragment => {
  const db = ident(database)
  const d = date(dayText(day))
  return sql`
    SELECT KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed, DurationSeconds, EventTime, IngestionTime
    FROM (SELECT PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed, DurationSeconds, EventTime, IngestionTime
          FROM ${db}.view_links WHERE Day = ${d}${onlyRows}) AS r
    ALL INNER JOIN
         (SELECT DISTINCT PropertyObjectViewId, DeveloperId AS KeyDeveloperId
          FROM ${db}.view_links WHERE Day >= ${d} - 1 AND Day <= ${d} + 1) AS k
    USING PropertyObjectViewId`
}

/** Columns: KeyDeveloperId, SessionId, FactId, DurationSeconds, ViewerKind, EventTime, IngestionTime (see servingViewRowsOf). */
export const servingSessionRowsOf = (database: string, day: DayNumber, onlyRows: SqlFragment = sql``): SqlFragment => {
  const db = ident(database)
  const d = date(dayText(day))
  return sql`
    SELECT DISTINCT KeyDeveloperId, SessionId, FactId, DurationSeconds, ViewerKind, EventTime, IngestionTime
    FROM (SELECT Day, SessionId, FactId, DurationSeconds, ViewerKind, EventTime, IngestionTime
          FROM ${db}.session_links WHERE Day = ${d}${onlyRows}) AS s
    ALL INNER JOIN (SELECT DISTINCT Day, SessionId, DeveloperId AS KeyDeveloperId FROM ${db}.session_view_links WHERE Day = ${d}) AS v
    USING (Day, SessionId)`
}
