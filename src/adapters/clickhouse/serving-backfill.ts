import { FUNNEL_STAGES } from '../../domain/funnel.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { dateTimeText } from './datetime-text.js'
import { BACKFILL_COMPLETE } from './serving-completeness.js'
import { servingSessionRowsOf, servingViewRowsOf } from './serving-rows.sql.js'
import { dayOf } from '../../domain/serving-links.js'
import { date, ident, name, sql, type SqlFragment } from './sql-fragment.js'

/** One line of progress: the step, the chunk (a month or a day) and how far the step is. */
export interface BackfillProgress {
  readonly step: 'view_links' | 'session_view_links' | 'session_links' | 'serving' | 'funnel_developer_daily'
  readonly chunk: string
  readonly done: number
  readonly of: number
  readonly skipped: boolean
}

// The materialized views' SELECTs of migration 0008, over one month of already stored facts.
const VIEW_LINKS = `toDate(EventTime) AS Day, PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed,
  ifNull(DurationSeconds, toUInt32(0)) AS DurationSeconds, EventTime, IngestionTime`
const SESSION_VIEW_LINKS = `toDate(EventTime) AS Day, SessionId, DeveloperId`
const NO_SESSION = `SessionId != toUUID('00000000-0000-0000-0000-000000000000')`
const SESSION_LINKS = `toDate('1970-01-01') + (intDiv(greatest(toUInt64(toUInt32(StartedAt)), 3600) - 3600, 86400) + arrayJoin(range(toUInt64(least(32,
  intDiv(greatest(toUInt64(toUInt32(LastActivityAt)), toUInt64(toUInt32(StartedAt))) + 3600, 86400)
  - intDiv(greatest(toUInt64(toUInt32(StartedAt)), 3600) - 3600, 86400) + 1))))) AS Day,
  SessionId, FactId, DurationSeconds, ViewerKind, EventTime, IngestionTime`

// Inserted by position; an alias equal to its own argument is cyclic on 18.16.
const FUNNEL_BY_DEVELOPER = FUNNEL_STAGES.map((stage) => `uniqMergeState(${stage}) AS m${stage}`).join(', ')

// Built from the constants above only: no input value reaches this SQL text.
const trusted = (text: string): SqlFragment => ({ kind: 'fragment', strings: [text], parts: [] })

/**
 * Fills the serving tables of migration 0008 from the facts already stored: first the link
 * tables and the funnel per developer and day, a month at a time, then per day of the view links the serving rows, exactly
 * as the ingest would have written them (serving-copies.ts): every view row under every
 * developer of its view (its rows within a day of each other), every session fact under the
 * developer of every view row on one of its days. Idempotent (rows collapse like redelivered
 * facts), resumable (each chunk done is recorded in serving_backfill and skipped next time, but a
 * day whose facts are newer than its record) and
 * safe beside a running ingest, whose own batches keep new facts linked meanwhile. Each chunk it
 * records makes every stored day record stale (the records' removal token reads serving_backfill):
 * the serving rows it wrote raised no per-day count.
 */
export const backfillServing = async (
  session: ClickHouseSession,
  report: (p: BackfillProgress) => void,
  now = () => Date.now(),
): Promise<void> => {
  const db = ident(session.database)
  const doneAt = async (step: string): Promise<Map<string, number>> =>
    new Map((await session.select<{ Chunk: string; At: string }>(sql`SELECT toString(Chunk) AS Chunk, toUInt32(max(DoneAt)) AS At FROM ${db}.serving_backfill WHERE Step = ${name(step)} GROUP BY Chunk`)).map((r) => [r.Chunk, Number(r.At)]))
  const record = (step: string, chunk: string) => session.insert('serving_backfill', [{ Step: step, Chunk: chunk, DoneAt: dateTimeText(now()) }])
  /** `newest`: a chunk's newest IngestionTime (s); a chunk done before it is done again. */
  const run = async (step: BackfillProgress['step'], chunks: readonly string[], work: (chunk: string) => Promise<void>, newest?: ReadonlyMap<string, number>) => {
    const finished = await doneAt(step)
    for (const [i, chunk] of chunks.entries()) {
      const at = finished.get(chunk)
      const skipped = at !== undefined && (newest?.get(chunk) ?? 0) < at
      if (!skipped) {
        await work(chunk)
        await record(step, chunk)
      }
      report({ step, chunk, done: i + 1, of: chunks.length, skipped })
    }
  }
  const months = async (table: string, column: string) =>
    (await session.select<{ m: string }>(sql`SELECT DISTINCT toString(toStartOfMonth(${ident(column)})) AS m FROM ${db}.${ident(table)} ORDER BY m`)).map((r) => r.m)

  await run('view_links', await months('property_object_view_facts', 'EventTime'), (m) =>
    session.command(sql`INSERT INTO ${db}.view_links SELECT ${trusted(VIEW_LINKS)} FROM ${db}.property_object_view_facts WHERE toStartOfMonth(EventTime) = ${date(m)}`))
  await run('session_view_links', await months('property_object_view_facts', 'EventTime'), (m) =>
    session.command(sql`INSERT INTO ${db}.session_view_links SELECT ${trusted(SESSION_VIEW_LINKS)} FROM ${db}.property_object_view_facts WHERE toStartOfMonth(EventTime) = ${date(m)} AND ${trusted(NO_SESSION)}`))
  await run('session_links', await months('session_facts', 'EventTime'), (m) =>
    session.command(sql`INSERT INTO ${db}.session_links SELECT ${trusted(SESSION_LINKS)} FROM ${db}.session_facts WHERE toStartOfMonth(EventTime) = ${date(m)}`))
  // a uniq state merged again with the same keys is unchanged: safe to repeat and beside the ingest
  await run('funnel_developer_daily', await months('funnel_daily', 'EventDate'), async (m) => {
    await session.command(sql`INSERT INTO ${db}.funnel_developer_daily SELECT DeveloperId, EventDate, ${trusted(FUNNEL_BY_DEVELOPER)}
      FROM ${db}.funnel_daily WHERE toStartOfMonth(EventDate) = ${date(m)} GROUP BY DeveloperId, EventDate`)
    await session.command(sql`INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows)
      SELECT DeveloperId, toDate('1970-01-01'), 'funnel', count() FROM ${db}.funnel_daily WHERE toStartOfMonth(EventDate) = ${date(m)} GROUP BY DeveloperId`)
  })
  // The link tables are filled by views from whatever instance wrote the facts; the serving rows
  // only by an ingest with the serving step: a day with facts newer than its backfill (an older
  // instance still writing) is done again.
  const newestOfDays = new Map((await session.select<{ d: string; t: string }>(sql`
    SELECT toString(Day) AS d, toUInt32(max(IngestionTime)) AS t
    FROM (SELECT Day, IngestionTime FROM ${db}.view_links UNION ALL SELECT Day, IngestionTime FROM ${db}.session_links)
    GROUP BY Day`)).map((r) => [r.d, Number(r.t)]))
  const days = (await session.select<{ d: string }>(sql`SELECT DISTINCT toString(Day) AS d FROM ${db}.view_links ORDER BY d`)).map((r) => r.d)
  await run('serving', days, async (d) => {
    const day = dayOf(Date.parse(`${d}T00:00:00Z`))
    await session.command(sql`
      INSERT INTO ${db}.developer_view_facts (KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed, DurationSeconds, EventTime, IngestionTime)
      ${servingViewRowsOf(session.database, day)}`)
    await session.command(sql`
      INSERT INTO ${db}.developer_session_facts (KeyDeveloperId, SessionId, FactId, DurationSeconds, ViewerKind, EventTime, IngestionTime)
      ${servingSessionRowsOf(session.database, day)}`)
    // after the rows: the read cache's versions of every developer the day may have written for
    await session.command(sql`INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows)
      SELECT DeveloperId, ${date(d)}, 'views', count() FROM ${db}.view_links WHERE Day >= ${date(d)} - 1 AND Day <= ${date(d)} + 1 GROUP BY DeveloperId`)
    await session.command(sql`INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows)
      SELECT DeveloperId, ${date(d)}, 'sessions', count() FROM ${db}.session_view_links WHERE Day = ${date(d)} GROUP BY DeveloperId`)
  }, newestOfDays)
  // what start and check read (serving-completeness.ts): every chunk of a run is done
  await record(BACKFILL_COMPLETE, dateTimeText(now()).slice(0, 10))
}
