import { ClickHouseLogLevel, createClient, type ClickHouseClient } from '@clickhouse/client'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import type { ViewSessionSource } from '../../src/adapters/clickhouse/merged-views.sql.js'
import { int, name, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { readPeriod } from '../../src/adapters/http/read-api/read-query.js'
import { getConversionFunnel } from '../../src/application/read/get-conversion-funnel.js'
import { getDeveloperSessionMetrics } from '../../src/application/read/get-developer-session-metrics.js'
import type { Guid } from '../../src/domain/guid.js'

// Phase "uncached single reads" (issue 33's first target): one developer, one read at a time, the
// read cache off, on an otherwise idle machine. Per route, rounds of three reads interleaved (the
// order rotating), so that noise hits all three alike:
//   - HTTP: GET through the API child (the read cache off: entries 0), as a dashboard asks;
//   - serving: the same use case in this process, straight on ClickHouseReadModel(session, 'serving');
//   - facts: the same on ClickHouseReadModel(session, 'facts'), the raw-fact query (the "before").
// ClickHouse's own cost per read comes from system.query_log (the server logs only the queries
// that ask for it: log_queries = 1 on these clients): the in-process reads tag their query_id,
// the API's queries are told apart by their text (the table and the period's literal).

export interface SingleRoute {
  readonly name: string
  readonly kind: 'sessions' | 'funnel'
  readonly from: string
  readonly to: string
}

export const SINGLE_ROUTES: readonly SingleRoute[] = [
  { name: 'session metrics, a year', kind: 'sessions', from: '2026-01-01', to: '2026-12-31' },
  { name: 'session metrics, 30 days', kind: 'sessions', from: '2026-06-01', to: '2026-06-30' },
  { name: 'conversion funnel, a year', kind: 'funnel', from: '2026-01-01', to: '2026-12-31' },
  { name: 'conversion funnel, 30 days', kind: 'funnel', from: '2026-06-01', to: '2026-06-30' },
]

export const pathOf = (r: SingleRoute): string => `/v1/${r.kind === 'sessions' ? 'session-metrics' : 'conversion-funnel'}?from=${r.from}&to=${r.to}`

type Contender = 'http' | ViewSessionSource
const CONTENDERS: readonly Contender[] = ['http', 'serving', 'facts']

export interface QueryCost {
  readonly queries: number
  readonly durationMs: number
  readonly cpuMs: number
  readonly readRows: number
  readonly readMiB: number
}

export interface SingleResult {
  readonly route: string
  readonly contender: Contender
  readonly p50: number
  readonly p90: number
  /** Per read: the median of the in-process reads' own sums; the mean for HTTP (its reads are not tagged). */
  readonly cost: QueryCost | undefined
  readonly reads: number
}

const percentile = (values: readonly number[], p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? 0
}

/** A session whose client logs its queries and names each with `${tag.current}-${n}`. */
const taggedSession = (url: string, database: string, tag: { current: string }): ClickHouseSession => {
  let n = 0
  return new ClickHouseSession(async () => {
    const client = createClient({ url, request_timeout: 300_000, clickhouse_settings: { log_queries: 1 }, log: { level: ClickHouseLogLevel.OFF } })
    return new Proxy(client, {
      get(target, prop, receiver) {
        if (prop === 'query') return (params: Parameters<ClickHouseClient['query']>[0]) => target.query({ ...params, query_id: `${tag.current}-${n++}` })
        const value: unknown = Reflect.get(target, prop, receiver)
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value
      },
    })
  }, { database })
}

interface LogRow {
  query_id: string
  query: string
  query_duration_ms: string
  read_rows: string
  read_bytes: string
  cpu_us: string
}

const costOf = (rows: readonly LogRow[]): QueryCost => ({
  queries: rows.length,
  durationMs: rows.reduce((a, r) => a + Number(r.query_duration_ms), 0),
  cpuMs: rows.reduce((a, r) => a + Number(r.cpu_us), 0) / 1000,
  readRows: rows.reduce((a, r) => a + Number(r.read_rows), 0),
  readMiB: rows.reduce((a, r) => a + Number(r.read_bytes), 0) / 2 ** 20,
})

/** The median per field over reads (each read's queries summed). */
const medianCost = (reads: readonly QueryCost[]): QueryCost | undefined =>
  reads.length === 0
    ? undefined
    : {
        queries: percentile(reads.map((r) => r.queries), 50),
        durationMs: percentile(reads.map((r) => r.durationMs), 50),
        cpuMs: percentile(reads.map((r) => r.cpuMs), 50),
        readRows: percentile(reads.map((r) => r.readRows), 50),
        readMiB: percentile(reads.map((r) => r.readMiB), 50),
      }

/** A query of the read API's, attributed to a route by its text (18.16 gets the values inline). */
const routeOfQuery = (query: string): string | undefined => {
  const year = query.includes(String(Date.parse('2026-01-01T00:00:00Z') / 1000)) || query.includes("'2026-01-01'")
  const month = query.includes(String(Date.parse('2026-06-01T00:00:00Z') / 1000)) || query.includes("'2026-06-01'")
  const kind = query.includes('funnel_daily') ? 'conversion funnel' : query.includes('_view_facts') ? 'session metrics' : undefined
  if (!kind || year === month) return undefined
  return `${kind}, ${year ? 'a year' : '30 days'}`
}

export interface SingleOptions {
  readonly url: string
  readonly database: string
  readonly developer: Guid
  readonly token: string
  /** The API child's port (started with the read cache off and log_queries on its client). */
  readonly apiPort: number
  readonly warmup: number
  readonly reads: number
  readonly log: (line: string) => void
}

export const singleReads = async (o: SingleOptions): Promise<SingleResult[]> => {
  const runTag = `bench_read_${Date.now().toString(36)}`
  const tag = { current: `${runTag}|open` }
  const session = taggedSession(o.url, o.database, tag)
  const models = { serving: new ClickHouseReadModel(session, 'serving'), facts: new ClickHouseReadModel(session, 'facts') }
  const actor = { developerId: o.developer }
  /** The answer as numbers by name; the HTTP funnel leaves out the stages without a source (their count is 0 there). */
  const read = async (contender: Contender, route: SingleRoute): Promise<Answer> => {
    if (contender === 'http') {
      const res = await fetch(`http://127.0.0.1:${o.apiPort}${pathOf(route)}`, { headers: { authorization: `Bearer ${o.token}` } })
      const body = (await res.json()) as Record<string, unknown>
      if (res.status !== 200) throw new Error(`${pathOf(route)}: ${res.status} ${JSON.stringify(body)}`)
      if (route.kind === 'sessions') return flatten(body, ['developerId', 'from', 'to'])
      return Object.fromEntries((body.stages as { stage: string; count: number; status: string }[]).filter((s) => s.status !== 'no-source').map((s) => [s.stage, s.count]))
    }
    const asked = readPeriod(route)
    if (asked._tag === 'Left') throw new Error(`bad period ${route.from}..${route.to}`)
    const model = models[contender]
    if (route.kind === 'sessions') {
      const r = await getDeveloperSessionMetrics(model)(actor, asked.right.period)
      if (r._tag === 'Left') throw new Error('access denied')
      return flatten(r.right as unknown as Record<string, unknown>, [])
    }
    const r = await getConversionFunnel(model, () => ({ enabled: true }))(actor, asked.right.range)
    if (r._tag === 'Left') throw new Error('access denied')
    return Object.fromEntries(r.right.map((s) => [s.stage, s.count]))
  }

  const started = Math.floor(Date.now() / 1000) - 1
  const times = new Map<string, number[]>()
  const answers = new Map<string, Answer[]>()
  const key = (route: SingleRoute, c: Contender) => `${route.name}|${c}`
  const rounds = o.warmup + o.reads
  for (let round = 0; round < rounds; round++) {
    for (const route of SINGLE_ROUTES) {
      // rotate the order: each contender goes first, second and third equally often
      const order = CONTENDERS.map((_, i) => CONTENDERS[(i + round) % CONTENDERS.length] as Contender)
      for (const c of order) {
        const measured = round >= o.warmup
        tag.current = `${runTag}|${measured ? 'm' : 'w'}|${route.name}|${c}|${round}`
        const t0 = performance.now()
        const answer = await read(c, route)
        const ms = performance.now() - t0
        if (!measured) continue
        times.set(key(route, c), [...(times.get(key(route, c)) ?? []), ms])
        answers.set(route.name, [...(answers.get(route.name) ?? []), answer])
      }
    }
    if (round === o.warmup - 1) o.log(`single reads: ${o.warmup} warm-up rounds done`)
  }
  for (const [route, list] of answers) {
    const differ = differences(list)
    if (differ.length > 0) o.log(`WARNING ${route}: the reads answered differently: ${differ.join('; ')}`)
    else o.log(`${route}: every read answered ${Object.entries(list[0] ?? {}).map(([k, v]) => `${k} ${v}`).join(', ')}`)
  }

  // The query log: this run's in-process reads by their query_id, the API's by their text.
  await session.command(sql`SYSTEM FLUSH LOGS`)
  const logged = await session.select<LogRow>(sql`
    SELECT query_id, query, query_duration_ms, read_rows, read_bytes,
           ProfileEvents.Values[indexOf(ProfileEvents.Names, 'UserTimeMicroseconds')]
             + ProfileEvents.Values[indexOf(ProfileEvents.Names, 'SystemTimeMicroseconds')] AS cpu_us
    FROM system.query_log
    WHERE type = 2 AND event_date >= yesterday() AND event_time >= toDateTime(${int(started)})
      AND (startsWith(query_id, ${name(runTag)}) OR position(query, concat(${name(o.database)}, '.')) > 0)`)
  await session.close()

  const perRead = new Map<string, LogRow[]>()
  const http = new Map<string, LogRow[]>()
  const funnelShared: LogRow[] = []
  let other = 0
  for (const r of logged) {
    if (r.query_id.startsWith(runTag)) {
      const [, phase, route, c, round] = r.query_id.split('|')
      if (phase !== 'm') continue
      const k = `${route}|${c}|${(round ?? '').replace(/-\d+$/, '')}`
      perRead.set(k, [...(perRead.get(k) ?? []), r])
    } else if (!/\bsystem\.|INSERT|OPTIMIZE|FLUSH/i.test(r.query) && !namesAnotherDeveloper(r.query, o.developer)) {
      const route = routeOfQuery(r.query)
      if (route) http.set(route, [...(http.get(route) ?? []), r])
      // the funnel route also reads the developer's name and the stages' freshness (reused for 1 s)
      else if (/\.(dim_developer|funnel_progress)\b/.test(r.query)) funnelShared.push(r)
      else other++
    }
  }
  if (other > 0) o.log(`query log: ${other} other queries of the API on ${o.database}, not counted`)
  const funnelRoutes = SINGLE_ROUTES.filter((r) => r.kind === 'funnel').length

  const results: SingleResult[] = []
  for (const route of SINGLE_ROUTES) {
    for (const c of CONTENDERS) {
      const ms = times.get(key(route, c)) ?? []
      let cost: QueryCost | undefined
      if (c === 'http') {
        // warm-up reads are in the log too: the API's queries are averaged over every read it served
        // the funnel's name and freshness reads are shared out over every funnel read
        const own = http.get(route.name) ?? []
        const shared = route.kind === 'funnel' ? costOf(funnelShared) : undefined
        const mine = costOf(own)
        const rows = own
        const all = shared ? { queries: mine.queries + shared.queries / funnelRoutes, durationMs: mine.durationMs + shared.durationMs / funnelRoutes, cpuMs: mine.cpuMs + shared.cpuMs / funnelRoutes, readRows: mine.readRows + shared.readRows / funnelRoutes, readMiB: mine.readMiB + shared.readMiB / funnelRoutes } : mine
        const n = rounds
        cost = rows.length === 0 ? undefined : { queries: all.queries / n, durationMs: all.durationMs / n, cpuMs: all.cpuMs / n, readRows: all.readRows / n, readMiB: all.readMiB / n }
      } else {
        const reads = [...perRead.entries()].filter(([k]) => k.startsWith(`${route.name}|${c}|`)).map(([, rows]) => costOf(rows))
        cost = medianCost(reads)
      }
      results.push({ route: route.name, contender: c, p50: percentile(ms, 50), p90: percentile(ms, 90), cost, reads: ms.length })
    }
  }
  return results
}

/** A query of another bench developer's read (the ids are inline on 18.16): not this developer's cost. */
const namesAnotherDeveloper = (query: string, developer: Guid): boolean =>
  !query.includes(developer) && /de000000-0000-4000-8000-\d{12}/.test(query)

type Answer = Readonly<Record<string, number | string>>

/** The answer's leaves by path (the HTTP body also carries the request's fields: `drop`). */
const flatten = (body: Record<string, unknown>, drop: readonly string[]): Answer => {
  const flat: Record<string, number | string> = {}
  const walk = (prefix: string, v: unknown) => {
    if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(prefix ? `${prefix}.${k}` : k, x)
    else flat[prefix] = typeof v === 'number' ? v : String(v)
  }
  for (const [k, v] of Object.entries(body)) if (!drop.includes(k)) walk(k, v)
  return flat
}

/** Every field on which two answers that both have it disagree. */
const differences = (answers: readonly Answer[]): string[] => {
  const out: string[] = []
  const keys = new Set(answers.flatMap((a) => Object.keys(a)))
  for (const k of [...keys].sort()) {
    const values = new Set(answers.filter((a) => k in a).map((a) => a[k]))
    if (values.size > 1) out.push(`${k}: ${[...values].join(' / ')}`)
  }
  return out
}

export const CONTENDER_NAMES: Readonly<Record<Contender, string>> = {
  http: 'HTTP API (cache off)',
  serving: 'in-process, serving',
  facts: 'in-process, facts (before)',
}

export const printSingle = (results: readonly SingleResult[], scale: number, who: string, log: (line: string) => void): void => {
  const f = (n: number | undefined, d = 1) => (n === undefined ? '–' : n.toFixed(d))
  log('')
  log(`uncached single reads at --scale ${scale}: ${who}, one read at a time, ${results[0]?.reads ?? 0} reads per line after the warm-up; targets: a regular developer's year ≤ 20 ms at scale 1 and 4, scale 4 within 1.3× of scale 1; the heavy developer's year ≤ 50 ms, 30 days ≤ 20 ms`)
  log('| route | read | p50 ms | p90 ms | ClickHouse CPU ms / read | query ms / read | rows read / read | MiB read / read |')
  log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
  for (const r of results) {
    log(`| ${r.route} | ${CONTENDER_NAMES[r.contender]} | ${f(r.p50)} | ${f(r.p90)} | ${f(r.cost?.cpuMs)} | ${f(r.cost?.durationMs)} | ${r.cost ? Math.round(r.cost.readRows).toLocaleString('en') : '–'} | ${f(r.cost?.readMiB)} |`)
  }
  log("(ClickHouse CPU: query_log UserTime + SystemTime; in-process: median per read; HTTP: mean per read of the API's queries, the funnel's with its name and freshness reads)")
}
