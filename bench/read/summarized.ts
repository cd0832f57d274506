// `BENCH_DATABASE=<a database BENCH_KEEP=1 npm run bench:read kept> npm run bench:read:summarized`:
// issue 45's day summaries on bench:read's data. Migrates the database, runs the session-days step
// (SessionDaysServingIndex's, as the ingest would after each serving write) over every day of its
// serving rows, a day at a time (timed; days done are recorded in serving_backfill and skipped next
// time), then reads, uncached and one at a time, the session metrics of a year and of 30 days for
// developer 7 and the heavy developer: from the day summaries (SummarizedReadModel) and from the
// serving rows (ClickHouseReadModel), interleaved. Prints p50/p90 ms per read and checks that both
// answer the same.
import { cpus, loadavg } from 'node:os'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseSessionDays } from '../../src/adapters/clickhouse/clickhouse-session-days.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { date, ident, name, sql, uuidSet } from '../../src/adapters/clickhouse/sql-fragment.js'
import type { ReadModel } from '../../src/application/ports/read-model.port.js'
import { SummarizedReadModel } from '../../src/application/read/summarized-read-model.js'
import { keepSessionDaysCurrent } from '../../src/application/serving/session-days-step.js'
import type { Guid } from '../../src/domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../src/domain/serving-links.js'
import { developerId, HEAVY_DEVELOPER } from './load.js'

const DEVELOPERS_PER_READ = 200
const ROWS_PER_STEP = 2000
const READS = Number(process.env.BENCH_SINGLE_READS ?? 15)
const STEP = 'bench_session_days'
const log = (line: string) => process.stdout.write(`${line}\n`)

/** The step over one day's serving rows (by EventTime), a group of developers at a time. */
const summarizeDay = async (session: ClickHouseSession, index: ClickHouseSessionDays, day: string): Promise<void> => {
  const db = ident(session.database)
  const developers = (await session.select<{ d: Guid }>(sql`
    SELECT DISTINCT KeyDeveloperId AS d FROM ${db}.developer_view_facts WHERE toDate(EventTime) = ${date(day)}`)).map((r) => r.d)
  for (let i = 0; i < developers.length; i += DEVELOPERS_PER_READ) {
    const group = uuidSet(developers.slice(i, i + DEVELOPERS_PER_READ))
    const [views, sessions] = await Promise.all([
      session.select<Record<string, string | number>>(sql`
        SELECT KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed, DurationSeconds, toUInt32(EventTime) AS E, toUInt32(IngestionTime) AS I
        FROM ${db}.developer_view_facts WHERE KeyDeveloperId IN ${group} AND toDate(EventTime) = ${date(day)}`),
      session.select<Record<string, string | number>>(sql`
        SELECT KeyDeveloperId, SessionId, FactId, DurationSeconds, ViewerKind, toUInt32(EventTime) AS E, toUInt32(IngestionTime) AS I
        FROM ${db}.developer_session_facts WHERE KeyDeveloperId IN ${group} AND toDate(EventTime) = ${date(day)}`),
    ])
    const viewRows: ServingViewRow[] = views.map((r) => ({
      keyDeveloperId: r.KeyDeveloperId as Guid, propertyObjectViewId: r.PropertyObjectViewId as Guid, factId: String(r.FactId), developerId: r.DeveloperId as Guid,
      sessionId: r.SessionId as Guid, isClosed: Number(r.IsClosed) === 1, durationSeconds: Number(r.DurationSeconds), eventTime: Number(r.E) * 1000, ingestionTime: Number(r.I) * 1000,
    }))
    const sessionRows: ServingSessionRow[] = sessions.map((r) => ({
      keyDeveloperId: r.KeyDeveloperId as Guid, sessionId: r.SessionId as Guid, factId: String(r.FactId), durationSeconds: Number(r.DurationSeconds),
      viewerKind: r.ViewerKind as 'Guest' | 'User', eventTime: Number(r.E) * 1000, ingestionTime: Number(r.I) * 1000,
    }))
    for (let v = 0; v < Math.max(viewRows.length, sessionRows.length); v += ROWS_PER_STEP) {
      await keepSessionDaysCurrent(index, viewRows.slice(v, v + ROWS_PER_STEP), sessionRows.slice(v, v + ROWS_PER_STEP))
    }
  }
}

const p = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0

const main = async (): Promise<void> => {
  const database = process.env.BENCH_DATABASE
  if (!database) throw new Error('BENCH_DATABASE: a database BENCH_KEEP=1 npm run bench:read kept')
  const session = serverSession({ url: process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123', user: 'default', password: '', database, requestTimeoutMs: 600_000 })
  const db = ident(database)
  try {
    log(`bench:read:summarized on ${database}: ${cpus().length} × ${cpus()[0]?.model.trim()}, node ${process.version}, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
    const applied = await migrate(session)
    if (applied.length > 0) log(`applied ${applied.join(', ')}`)
    const index = new ClickHouseSessionDays(session)
    const done = new Set((await session.select<{ c: string }>(sql`SELECT toString(Chunk) AS c FROM ${db}.serving_backfill WHERE Step = ${name(STEP)}`)).map((r) => r.c))
    const days = (await session.select<{ d: string }>(sql`SELECT DISTINCT toString(toDate(EventTime)) AS d FROM ${db}.developer_view_facts ORDER BY d`)).map((r) => r.d).filter((d) => !done.has(d))
    const started = Date.now()
    for (const [i, day] of days.entries()) {
      await summarizeDay(session, index, day)
      await session.insert('serving_backfill', [{ Step: STEP, Chunk: day, DoneAt: new Date().toISOString().slice(0, 19).replace('T', ' ') }])
      if ((i + 1) % 30 === 0 || i === days.length - 1) log(`summarized ${i + 1} of ${days.length} days in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    }
    const serving = new ClickHouseReadModel(session, 'serving')
    const summarized = new SummarizedReadModel(serving, index)
    const periods = [
      { name: 'a year', from: Date.parse('2026-01-01T00:00:00Z'), to: Date.parse('2027-01-01T00:00:00Z') },
      { name: '30 days', from: Date.parse('2026-06-01T00:00:00Z'), to: Date.parse('2026-07-01T00:00:00Z') },
    ]
    for (const [who, developer] of [['developer 7', developerId(7)], ['the heavy developer', developerId(HEAVY_DEVELOPER)]] as const) {
      for (const period of periods) {
        const times = { summaries: [] as number[], serving: [] as number[] }
        let same = true
        for (let r = 0; r < READS; r++) {
          const answers: string[] = []
          const contenders: [keyof typeof times, ReadModel][] = [['summaries', summarized], ['serving', serving]]
          if (r % 2 === 1) contenders.reverse()
          for (const [name, model] of contenders) {
            const t = performance.now()
            const answer = await Promise.all([model.sessionTotals(developer, period), model.viewTotals(developer, period)])
            times[name].push(performance.now() - t)
            answers.push(JSON.stringify(answer))
          }
          same &&= answers[0] === answers[1]
        }
        const fmt = (xs: number[]) => {
          const s = [...xs].sort((a, b) => a - b)
          return `p50 ${p(s, 0.5).toFixed(1)} ms, p90 ${p(s, 0.9).toFixed(1)} ms`
        }
        log(`${who}, session metrics, ${period.name}: summaries ${fmt(times.summaries)}; serving rows ${fmt(times.serving)}; ${same ? 'same answers' : 'ANSWERS DIFFER'}`)
        if (!same) process.exitCode = 1
      }
    }
  } finally {
    await session.close()
  }
}

await main()
