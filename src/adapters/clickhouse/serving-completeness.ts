import type { ClickHouseSession } from './clickhouse-session.js'
import { ident, name, sql } from './sql-fragment.js'

/** The backfill's last step: recorded once every chunk of a run is done (serving-backfill.ts). */
export const BACKFILL_COMPLETE = 'complete'
/**
 * Recorded every minute, and as it stopped, by an instance of a build before the day records were
 * the one read path (their setting off): what it writes raises no per-day
 * count. The day records' removal token reads it (clickhouse-day-records.ts).
 */
export const SESSION_DAYS_OFF = 'session_days_off'

/**
 * Why the serving tables do not yet answer for every stored fact, or undefined when they do: a
 * store that held facts before migration 0008 created them (a session or view fact ingested
 * before 0008's AppliedAt, or a whole minute of funnel_progress before it) is incomplete until
 * `dev-stats-ingest backfill` has finished a run. Facts ingested since went through the serving step. Cost: one read of the IngestionTime
 * column of each fact table. An empty table has no minimum (not 1970: `min` of no rows is 0, and
 * funnel_progress's minute + 60 s would pass for a fact before 0008).
 */
export const servingIncomplete = async (session: ClickHouseSession): Promise<string | undefined> => {
  const db = ident(session.database)
  // a finished backfill answers without reading the fact tables' IngestionTime columns
  const [done] = await session.select<{ finished: string }>(sql`SELECT count() AS finished FROM ${db}.serving_backfill WHERE Step = 'complete'`)
  if (Number(done?.finished ?? 0) > 0) return undefined
  const [state] = await session.select<{ older: string }>(sql`
    SELECT count() AS older FROM (
      SELECT 1 FROM (SELECT min(AppliedAt) AS at FROM ${db}.schema_migrations WHERE Version LIKE '0008%') AS m
      CROSS JOIN (SELECT min(IngestionTime) AS t FROM ${db}.session_facts HAVING count() > 0
                  UNION ALL SELECT min(IngestionTime) FROM ${db}.property_object_view_facts HAVING count() > 0
                  UNION ALL SELECT min(Minute) + 60 FROM ${db}.funnel_progress HAVING count() > 0) AS f
      WHERE f.t < m.at)`)
  if (Number(state?.older ?? 0) === 0) return undefined
  return `${session.database} held facts before migration 0008 and dev-stats-ingest backfill has not finished: the serving tables miss them`
}
