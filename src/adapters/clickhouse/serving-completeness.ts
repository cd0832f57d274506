import type { ClickHouseSession } from './clickhouse-session.js'
import { ident, name, sql } from './sql-fragment.js'

/** The backfill's last step: recorded once every chunk of a run is done (serving-backfill.ts). */
export const BACKFILL_COMPLETE = 'complete'
/** Recorded by a backfill that summarized every day of serving rows, and by the first start with the day summaries on an empty store. */
export const SESSION_DAYS_COMPLETE = 'session_days_complete'
/** Recorded by every start with the day summaries off, every minute while it runs and as it stops (session-days-off-heartbeat.ts): what it writes is not summarized. */
export const SESSION_DAYS_OFF = 'session_days_off'

/**
 * Why the serving tables do not yet answer for every stored fact, or undefined when they do: a
 * store that held facts before migration 0008 created them (a session or view fact ingested
 * before 0008's AppliedAt, or a whole minute of funnel_progress before it) is incomplete until
 * `dev-stats-ingest backfill` has finished a run. Facts ingested since went through the serving step. Cost: one read of the IngestionTime
 * column of each fact table. An empty table has no minimum (not 1970: `min` of no rows is 0, and
 * funnel_progress's minute + 60 s would pass for a fact before 0008).
 */
export const servingIncomplete = async (session: ClickHouseSession, options: { readonly daySummaries?: boolean } = {}): Promise<string | undefined> =>
  (await servingRowsIncomplete(session)) ?? (options.daySummaries ? await sessionDaysIncomplete(session) : undefined)

const servingRowsIncomplete = async (session: ClickHouseSession): Promise<string | undefined> => {
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

/**
 * With DEV_STATS_SESSION_DAY_SUMMARIES on, whole days are read from the day summaries (migration
 * 0011), which hold only what an instance with them on wrote: they are complete when a summarizing
 * backfill started (or a start found the store empty) after the last record of an instance with
 * them off, or when the store has no serving rows and never ran with them off. Times are the server's.
 */
const sessionDaysIncomplete = async (session: ClickHouseSession): Promise<string | undefined> => {
  const db = ident(session.database)
  const [state] = await session.select<{ complete: string; off: string; rows: string }>(sql`
    SELECT
      (SELECT toUInt32(max(DoneAt)) FROM ${db}.serving_backfill WHERE Step = ${name(SESSION_DAYS_COMPLETE)}) AS complete,
      (SELECT toUInt32(max(DoneAt)) FROM ${db}.serving_backfill WHERE Step = ${name(SESSION_DAYS_OFF)}) AS off,
      (SELECT count() FROM (SELECT 1 FROM ${db}.developer_view_facts LIMIT 1)) + (SELECT count() FROM (SELECT 1 FROM ${db}.developer_session_facts LIMIT 1)) AS rows`)
  const complete = Number(state?.complete ?? 0)
  const off = Number(state?.off ?? 0)
  if (complete > off) return undefined
  if (complete === 0 && off === 0 && Number(state?.rows ?? 0) === 0) return undefined
  return `${session.database} has serving rows the day summaries miss (written with DEV_STATS_SESSION_DAY_SUMMARIES off, or before it was on) and dev-stats-ingest backfill has not summarized them since`
}

/**
 * What a start that passed servingIncomplete records: with the day summaries off, that it writes
 * unsummarized rows from now on; with them on and no record yet (an empty store), that they are complete.
 * `signal` ends the request on the client's side (a stop that cannot wait for a silent server).
 */
export const recordSessionDaysMode = async (session: ClickHouseSession, daySummaries: boolean, signal?: AbortSignal): Promise<void> => {
  const db = ident(session.database)
  const step = daySummaries ? SESSION_DAYS_COMPLETE : SESSION_DAYS_OFF
  if (daySummaries) {
    const [done] = await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${db}.serving_backfill WHERE Step = ${name(step)}`)
    if (Number(done?.n ?? 0) > 0) return
  }
  await session.command(sql`INSERT INTO ${db}.serving_backfill (Step, Chunk, DoneAt) SELECT ${name(step)}, today(), now()`, {}, signal)
}
