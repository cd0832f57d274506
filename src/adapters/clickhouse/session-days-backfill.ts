import { keepSessionDaysCurrent } from '../../application/serving/session-days-step.js'
import type { Guid } from '../../domain/guid.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { ClickHouseSessionDays } from './clickhouse-session-days.js'
import { SERVING_SESSION_COLUMNS, SERVING_VIEW_COLUMNS, servingSessionRowOf, servingViewRowOf, type ServingSessionText, type ServingViewText } from './serving-row-text.js'
import { date, ident, sql, uuidSet } from './sql-fragment.js'

/** Developers whose rows of a day are read at once, and serving rows handed to one step. */
const DEVELOPERS_PER_READ = 200
const ROWS_PER_STEP = 2000

/**
 * Runs the session-days step (session-days-step.ts) over one day's serving rows (by EventTime), as
 * if the ingest had just written them: every view and session of the day is recomputed from the
 * rows as stored, so it is idempotent and safe beside the ingest.
 */
export const summarizeServingDay = async (session: ClickHouseSession, day: string): Promise<void> => {
  const db = ident(session.database)
  const index = new ClickHouseSessionDays(session)
  const developers = (await session.select<{ KeyDeveloperId: Guid }>(sql`
    SELECT DISTINCT KeyDeveloperId FROM (
      SELECT KeyDeveloperId FROM ${db}.developer_view_facts WHERE toDate(EventTime) = ${date(day)}
      UNION ALL SELECT KeyDeveloperId FROM ${db}.developer_session_facts WHERE toDate(EventTime) = ${date(day)})`)).map((r) => r.KeyDeveloperId)
  for (let i = 0; i < developers.length; i += DEVELOPERS_PER_READ) {
    const group = uuidSet(developers.slice(i, i + DEVELOPERS_PER_READ))
    const [views, sessions] = await Promise.all([
      session.select<ServingViewText>(sql`
        SELECT ${SERVING_VIEW_COLUMNS} FROM ${db}.developer_view_facts WHERE KeyDeveloperId IN ${group} AND toDate(EventTime) = ${date(day)}`),
      session.select<ServingSessionText>(sql`
        SELECT ${SERVING_SESSION_COLUMNS} FROM ${db}.developer_session_facts WHERE KeyDeveloperId IN ${group} AND toDate(EventTime) = ${date(day)}`),
    ])
    const viewRows = views.map(servingViewRowOf)
    const sessionRows = sessions.map(servingSessionRowOf)
    for (let v = 0, s = 0; v < viewRows.length || s < sessionRows.length; v += ROWS_PER_STEP, s += ROWS_PER_STEP) {
      await keepSessionDaysCurrent(index, viewRows.slice(v, v + ROWS_PER_STEP), sessionRows.slice(s, s + ROWS_PER_STEP))
    }
  }
}
