import { DayRecordsReadModel } from '../../application/read/day-records-read-model.js'
import type { ReadModel } from '../../application/ports/read-model.port.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf } from '../../domain/serving-links.js'
import { ClickHouseDayRecords } from './clickhouse-day-records.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { date, ident, sql } from './sql-fragment.js'

const unused: ReadModel = new Proxy({} as ReadModel, { get: () => () => Promise.reject(new Error('not read by the backfill')) })

/**
 * The day records of one month of serving rows (by EventTime), as if every row had been written
 * with the per-day counts on: the view rows' counts of each developer-day are raised (so no record
 * computed before, from rows written without counts, keeps its stamp, and no day with rows reads as
 * empty), then each developer's records of the month are computed. Idempotent and safe beside the
 * ingest: counts only grow, and a record is computed from the rows as stored.
 */
export const recordServingMonth = async (session: ClickHouseSession, month: string): Promise<void> => {
  const db = ident(session.database)
  await session.command(sql`
    INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows)
    SELECT KeyDeveloperId, toDate(EventTime) AS Day, 'views', count() FROM ${db}.developer_view_facts
    WHERE toStartOfMonth(EventTime) = ${date(month)} GROUP BY KeyDeveloperId, Day`)
  const developers = await session.select<{ KeyDeveloperId: Guid }>(sql`
    SELECT DISTINCT KeyDeveloperId FROM ${db}.developer_view_facts WHERE toStartOfMonth(EventTime) = ${date(month)}`)
  const records = new DayRecordsReadModel(unused, new ClickHouseDayRecords(session))
  const first = dayOf(Date.parse(`${month}T00:00:00Z`))
  const next = new Date(`${month}T00:00:00Z`)
  next.setUTCMonth(next.getUTCMonth() + 1)
  for (const { KeyDeveloperId } of developers) await records.refresh(KeyDeveloperId, first, dayOf(next.getTime()) - 1)
}
