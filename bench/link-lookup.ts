// The serving step's view-link lookup, as shipped (ClickHouseServingIndex.viewLinks: PREWHERE on
// the ids), in its earlier form (both conditions in WHERE), and as shipped on a copy of the table
// with index_granularity 128 (the migrations' is 1,024), side by side on one server: a view_links
// table of BENCH_LINK_ROWS rows (3,000,000) over three days in nine parts, as the two-hour soak
// left it, and lookups of 500 view ids over five days, one thread each, in turns.
// Needs a ClickHouse server (`npm run infra:up`); BENCH_CLICKHOUSE_URL overrides its address.
import { ClickHouseServingIndex } from '../src/adapters/clickhouse/clickhouse-serving-index.js'
import { serverSession } from '../src/adapters/clickhouse/server-session.factory.js'
import { date, ident, join, sql, uuidSet, wholeLiteral } from '../src/adapters/clickhouse/sql-fragment.js'
import { dayOf, dayText, type DayNumber } from '../src/domain/serving-links.js'
import type { Guid } from '../src/domain/guid.js'
import { resetDatabase } from '../test/support/clickhouse.js'

const { BENCH_CLICKHOUSE_URL: url = 'http://127.0.0.1:18123', BENCH_LINK_ROWS: rowsText = '3000000' } = process.env
const ROWS = Number(rowsText)
const PARTS = 9
const IDS = 500
const ROUNDS = 15
const DATABASE = 'bench_link_lookup'

const session = serverSession({ url, user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)
const index = new ClickHouseServingIndex(session)

await resetDatabase(session)
const first = dayOf(Date.parse('2026-12-05T00:00:00Z'))
// Rows spread over three days; each part holds a slice of every day (inserts arrive all day long).
for (let part = 0; part < PARTS; part++) {
  const n = Math.ceil(ROWS / PARTS)
  await session.command(sql`
    INSERT INTO ${db}.view_links
    SELECT toDate('2026-12-05') + (number % 3) AS Day, generateUUIDv4() AS PropertyObjectViewId, toString(number) AS FactId,
           generateUUIDv4() AS DeveloperId, generateUUIDv4() AS SessionId, 1 AS IsClosed, 30 AS DurationSeconds,
           toDateTime('2026-12-05 00:00:00', 'UTC') + (number % 3) * 86400 + intDiv(number, 3) % 86400 AS EventTime,
           toDateTime('2026-12-07 00:00:00', 'UTC') AS IngestionTime
    FROM numbers(${wholeLiteral(n)})`, { max_insert_block_size: String(n) })
}
const days: DayNumber[] = [first - 1, first, first + 1, first + 2, first + 3]
await session.command(sql`CREATE TABLE ${db}.view_links_g128 AS ${db}.view_links
  ENGINE = ReplacingMergeTree(IngestionTime) PARTITION BY toYYYYMM(Day) ORDER BY (Day, PropertyObjectViewId, FactId, DeveloperId)
  SETTINGS index_granularity = 128`)
for (let part = 0; part < PARTS; part++) {
  await session.command(sql`INSERT INTO ${db}.view_links_g128 SELECT * FROM ${db}.view_links WHERE toUInt64(FactId) % ${wholeLiteral(PARTS)} = ${wholeLiteral(part)}`)
}

const sample = async (): Promise<Guid[]> =>
  (await session.select<{ id: Guid }>(sql`SELECT PropertyObjectViewId AS id FROM ${db}.view_links ORDER BY rand() LIMIT ${wholeLiteral(IDS)}`)).map((r) => r.id)

const COLUMNS = sql`SessionId, PropertyObjectViewId, FactId, DeveloperId, IsClosed, DurationSeconds,
  toUInt32(EventTime) AS EventTime, toUInt32(IngestionTime) AS IngestionTime`
const dayList = () => join(days.map((d) => date(dayText(d))), ', ')

/** The lookup before PREWHERE: the same columns, both conditions in WHERE. */
const whereForm = (ids: readonly Guid[]) =>
  session.select(sql`SELECT ${COLUMNS} FROM ${db}.view_links
    WHERE Day IN (${dayList()}) AND PropertyObjectViewId IN ${uuidSet(ids)}`, { max_threads: 1 })

/** The shipped form on the table of finer granules. */
const finerGranules = (ids: readonly Guid[]) =>
  session.select(sql`SELECT ${COLUMNS} FROM ${db}.view_links_g128
    PREWHERE PropertyObjectViewId IN ${uuidSet(ids)} WHERE Day IN (${dayList()})`, { max_threads: 1 })

const timed = async (lookup: () => Promise<unknown[]>): Promise<{ ms: number; rows: number }> => {
  const started = performance.now()
  const rows = (await lookup()).length
  return { ms: performance.now() - started, rows }
}

const forms = [
  { name: 'shipped (PREWHERE ids)', lookup: (ids: readonly Guid[]) => index.viewLinks(days, ids), ms: [] as number[] },
  { name: 'before (WHERE Day AND ids)', lookup: whereForm, ms: [] as number[] },
  { name: 'shipped, granularity 128', lookup: finerGranules, ms: [] as number[] },
]
for (let round = 0; round < ROUNDS; round++) {
  const ids = await sample()
  const found = new Set<number>()
  // each round starts with the next form, so that none is always first
  for (let i = 0; i < forms.length; i++) {
    const form = forms[(round + i) % forms.length] as (typeof forms)[number]
    const { ms, rows } = await timed(() => form.lookup(ids))
    form.ms.push(ms)
    found.add(rows)
  }
  if (found.size !== 1) throw new Error(`the forms found different rows: ${[...found].join(', ')}`)
}
const pct = (xs: number[], p: number) => [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0
const line = (name: string, xs: number[]) => `${name.padEnd(28)} p50 ${pct(xs, 0.5).toFixed(0).padStart(5)} ms   p90 ${pct(xs, 0.9).toFixed(0).padStart(5)} ms`
console.log(`view-link lookups: ${IDS} ids over 5 days, ${ROWS.toLocaleString('en')} link rows in ${PARTS} parts, ${ROUNDS} rounds`)
for (const form of forms) console.log(line(form.name, form.ms))
await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
await session.close()
