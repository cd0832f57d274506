import { DayRecordsReadModel } from '../../application/read/day-records-read-model.js'
import type { ReadModel } from '../../application/ports/read-model.port.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf } from '../../domain/serving-links.js'
import { ClickHouseDayRecords } from './clickhouse-day-records.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { date, ident, sql } from './sql-fragment.js'

const unused: ReadModel = new Proxy({} as ReadModel, { get: () => () => Promise.reject(new Error('not read by the backfill')) })

/**
 * Raises the view counts of every developer-day of one month of serving rows (by EventTime) by its
 * rows, as if they had been written with the per-day counts on: no record computed before, from
 * rows written without counts, keeps its stamp, and no day with rows reads as empty. Counts only
 * grow: safe to repeat and beside the ingest.
 */
export const countServingMonth = async (session: ClickHouseSession, month: string): Promise<void> => {
  const db = ident(session.database)
  await session.command(sql`
    INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows)
    SELECT KeyDeveloperId, toDate(EventTime) AS Day, 'views', count() FROM ${db}.developer_view_facts
    WHERE toStartOfMonth(EventTime) = ${date(month)} GROUP BY KeyDeveloperId, Day`)
}

/** Computes each developer's day records of one month of serving rows, after every month was counted (a record's stamp reads the counts around it). */
export const recordServingMonth = async (session: ClickHouseSession, month: string): Promise<void> => {
  const db = ident(session.database)
  const developers = await session.select<{ KeyDeveloperId: Guid }>(sql`
    SELECT DISTINCT KeyDeveloperId FROM ${db}.developer_view_facts WHERE toStartOfMonth(EventTime) = ${date(month)}`)
  const records = new DayRecordsReadModel(unused, new ClickHouseDayRecords(session))
  const first = dayOf(Date.parse(`${month}T00:00:00Z`))
  const next = new Date(`${month}T00:00:00Z`)
  next.setUTCMonth(next.getUTCMonth() + 1)
  for (const { KeyDeveloperId } of developers) await records.refresh(KeyDeveloperId, first, dayOf(next.getTime()) - 1)
}
