// `npm run bench:read -- [--scale N] [--heavy N] [--only-single]`: the read API on the ClickHouse
// server (spec §8, issues 21, 33 and 45). Loads, into a database of its own, N × 100 developers who
// each own the same year of data at every scale (10,000 view facts, 10,000 sessions, 7,300 funnel
// rows; bench/read/load.ts; a view within its session) and a heavy developer (--heavy: 1,000,000
// views and sessions a year by default, 0 for none): N × 1,000,000 view facts, N × 1,000,000
// session facts (INSERT … SELECT; migration 0008's materialized views fill the link tables as it
// goes), then the serving tables with backfillServing (timed), then OPTIMIZE … FINAL of every
// table. Then, with the API in a child process over the read side the library composes
// (createDevStatsIngest(…).read):
//   1. uncached single reads (bench/read/single.ts): developer 7 (BENCH_DEVELOPER), then the heavy
//      developer, one read at a time, session metrics and the funnel for a year and 30 days, over
//      HTTP with the read cache off and in-process on ClickHouseReadModel with source 'serving' and
//      'facts', interleaved; p50/p90 ms and ClickHouse's query CPU per read from system.query_log.
//      --only-single (or BENCH_ONLY_SINGLE=1) stops here.
//   2. loads: autocannon (50 connections, 20 s) per route with the tokens of every developer in
//      turn, then with the heavy developer's token alone, with the read cache off, on, and off and on while
//      a writer appends once a second (to the heavy developer too) through the ingest's fact store
//      (ServingFactStore: facts, link lookups, serving rows; bench/read/writer.ts), without and with
//      DEV_STATS_READ_CACHE_MAX_STALE_SECONDS=10 (BENCH_CACHE=<name> selects one).
//      Before each load, every developer's first read is timed on its own (10 at a time).
// BENCH_KEEP=1 keeps the database; BENCH_DATABASE=<name> reuses a kept one (refused unless loaded
// completely at the same --scale, --heavy and data layout; partitions the last run's writer split
// are merged first). BENCH_DURATION, BENCH_CONNECTIONS, BENCH_ONLY=<route text>, BENCH_SINGLE_READS,
// BENCH_SINGLE_WARMUP narrow a run. Prints the machine and the load average beside the figures.
import { spawn } from 'node:child_process'
import { cpus, loadavg, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { servingFactStore } from '../../test/support/clickhouse.js'
import { checkLoaded, developerId, developersAt, HEAVY_DEVELOPER, loadBenchData, settle, sizesAt } from './load.js'
import { parseReadOptions } from './options.js'
import { printSingle, singleReads } from './single.js'
import { signToken } from './tokens.js'
import { writer } from './writer.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const options = parseReadOptions(process.argv.slice(2))
const url = process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123'
// BENCH_DATABASE: reuse a database a BENCH_KEEP=1 run loaded (skips the load)
const reuse = process.env.BENCH_DATABASE
const database = reuse ?? `bench_read_${Date.now().toString(36)}`
const { duration, connections, scale, heavy } = options
const DEVELOPERS = developersAt(scale)
const secret = `bench-read-${'x'.repeat(32)}`
const log = (line: string) => process.stdout.write(`${line}\n`)
const load1 = () => loadavg().map((l) => l.toFixed(2)).join(' ')

const ROUTES = [
  { name: 'GET /v1/session-metrics (a year)', path: '/v1/session-metrics?from=2026-01-01&to=2026-12-31' },
  { name: 'GET /v1/session-metrics (30 days)', path: '/v1/session-metrics?from=2026-06-01&to=2026-06-30' },
  { name: 'GET /v1/conversion-funnel (a year)', path: '/v1/conversion-funnel?from=2026-01-01&to=2026-12-31' },
  { name: 'GET /v1/conversion-funnel (30 days)', path: '/v1/conversion-funnel?from=2026-06-01&to=2026-06-30' },
]

const CACHES = [
  { name: 'off', entries: 0, maxStaleSeconds: 0, writes: false },
  { name: 'on', entries: 10_000, maxStaleSeconds: 0, writes: false },
  { name: 'off, writes', entries: 0, maxStaleSeconds: 0, writes: true },
  { name: 'on, writes', entries: 10_000, maxStaleSeconds: 0, writes: true },
  { name: 'on, writes, stale ≤ 10 s', entries: 10_000, maxStaleSeconds: 10, writes: true },
].filter((c) => !process.env.BENCH_CACHE || c.name === process.env.BENCH_CACHE)

/** The API child; `clickhouseUrl` may carry client settings (`?ch_log_queries=1`). */
const startApi = async (cache: { entries: number; maxStaleSeconds: number }, clickhouseUrl = url): Promise<{ port: number; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/read/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CLICKHOUSE_URL: clickhouseUrl, BENCH_DATABASE: database, BENCH_SECRET: secret, BENCH_READ_CACHE_ENTRIES: String(cache.entries), BENCH_READ_CACHE_MAX_STALE_SECONDS: String(cache.maxStaleSeconds) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<void>((r) => child.once('exit', () => r()))
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (b: Buffer) => {
      const m = /listening (\d+)/.exec(b.toString())
      if (m) resolve(Number(m[1]))
    })
    child.once('exit', (code) => reject(new Error(`the API process exited with ${code}`)))
  })
  return { port, stop: async () => void (child.kill('SIGTERM'), await exited) }
}

interface Row {
  readonly route: string
  readonly cache: string
  readonly firstP50: number
  readonly firstP99: number
  readonly firstFailed: number
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly failures: number
  /** The failures by kind: each non-2xx status, errors, timeouts. */
  readonly failedAs: string
  readonly load: string
}

const load = async (port: number, path: string, tokens: readonly string[]): Promise<Omit<Row, 'route' | 'cache' | 'firstP50' | 'firstP99' | 'firstFailed' | 'load'>> => {
  let n = 0
  const result = await autocannon({
    url: `http://127.0.0.1:${port}`,
    connections,
    duration,
    // a slow answer is measured, not dropped as an error at autocannon's 10 s default
    timeout: 120,
    requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path, headers: { authorization: `Bearer ${tokens[n++ % tokens.length]}` } }) }],
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    failedAs: [
      ...Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2')).map(([code, s]) => `${s.count} × ${code}`),
      ...(result.errors > 0 ? [`${result.errors} errors`] : []),
      ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
    ].join(', '),
  }
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/** Every developer's first read of the route, 10 at a time; latencies in ms (of the answered ones), failures counted. */
const firstReads = async (port: number, path: string, tokens: readonly string[]): Promise<{ p50: number; p99: number; failed: number }> => {
  const times: number[] = []
  let failed = 0
  for (let i = 0; i < tokens.length; i += 10) {
    await Promise.all(
      tokens.slice(i, i + 10).map(async (t) => {
        const started = performance.now()
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${t}` } })
        const body = await res.text()
        if (res.status !== 200) {
          if (failed++ === 0) log(`  first read of ${path}: ${res.status} ${body.slice(0, 300)}`)
          return
        }
        times.push(performance.now() - started)
      }),
    )
  }
  times.sort((a, b) => a - b)
  return { p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)), failed }
}

const main = async (): Promise<void> => {
  const session = serverSession({ url, user: 'default', password: '', database })
  const version = (await session.select<{ v: string }>(sql`SELECT version() AS v`))[0]?.v
  const sizes = sizesAt(scale, heavy)
  log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ClickHouse ${version} at ${url} (same machine)`)
  log(`bench:read --scale ${scale} --heavy ${heavy}${options.onlySingle ? ' --only-single' : ''} at ${new Date().toISOString()}: ${sizes.developers} developers${heavy > 0 ? ` and a heavy one (${heavy.toLocaleString('en')} views and sessions)` : ''}, ${sizes.views.toLocaleString('en')} view facts, ${sizes.sessions.toLocaleString('en')} session facts, ${sizes.funnelRows.toLocaleString('en')} funnel rows; load average ${load1()}`)
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  let loaded = false
  let writeSession: ReturnType<typeof serverSession> | undefined
  try {
    if (reuse) {
      await checkLoaded(session, scale, heavy)
      loaded = true
      log(`reusing the data of ${reuse}`)
      // a database loaded before the latest migrations gets them (no data moves)
      const applied = await migrate(session)
      if (applied.length > 0) log(`applied ${applied.join(', ')}`)
      await settle(url, session, log)
    } else {
      await migrate(session)
      await loadBenchData(url, session, scale, log, heavy)
      loaded = true
    }
    const tokens = await Promise.all(Array.from({ length: DEVELOPERS }, (_, d) => signToken(developerId(d), secret)))
    const heavyToken = heavy > 0 ? await signToken(developerId(HEAVY_DEVELOPER), secret) : undefined
    const readers = [
      { who: `developer ${options.developer}`, index: options.developer, token: tokens[options.developer] as string },
      ...(heavyToken ? [{ who: `the heavy developer (${heavy.toLocaleString('en')} sessions a year)`, index: HEAVY_DEVELOPER, token: heavyToken }] : []),
    ]
    for (const reader of readers) {
      log(`\nuncached single reads, ${reader.who} (${developerId(reader.index)}); load average ${load1()}`)
      api = await startApi({ entries: 0, maxStaleSeconds: 0 }, `${url.replace(/\/$/, '')}/?ch_log_queries=1`)
      const single = await singleReads({
        url, database, developer: developerId(reader.index), token: reader.token, apiPort: api.port,
        warmup: options.singleWarmup, reads: options.singleReads, log,
      })
      await api.stop()
      api = undefined
      printSingle(single, scale, reader.who, log)
      log(`load average after the single reads ${load1()}`)
    }
    if (options.onlySingle) return

    writeSession = serverSession({ url, user: 'default', password: '', database })
    const writes = servingFactStore(writeSession)
    const rows: Row[] = []
    for (const cache of CACHES) {
      api = await startApi(cache)
      const everyone = { who: 'every developer', tokens: heavyToken ? [...tokens, heavyToken] : tokens }
      const groups = heavyToken ? [everyone, { who: 'the heavy developer', tokens: [heavyToken] }] : [everyone]
      for (const [route, group] of ROUTES.filter((r) => !process.env.BENCH_ONLY || r.name.includes(process.env.BENCH_ONLY)).flatMap((r) => groups.map((g) => [r, g] as const))) {
        const first = await firstReads(api.port, route.path, group.tokens)
        const w = cache.writes ? writer(writes, DEVELOPERS, options.developer, heavyToken ? HEAVY_DEVELOPER : undefined) : undefined
        const before = load1()
        const r = await load(api.port, route.path, group.tokens)
        const wrote = await w?.stop()
        const row = { route: `${route.name}, ${group.who}`, cache: cache.name, firstP50: first.p50, firstP99: first.p99, firstFailed: first.failed, ...r, load: `${before} → ${load1()}` }
        rows.push(row)
        log(`${row.route}, cache ${cache.name}: first reads p50 ${first.p50} ms, p99 ${first.p99} ms${first.failed > 0 ? ` (${first.failed} failed)` : ''}; load ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.requests} requests, ${r.failures} failed${r.failedAs ? `: ${r.failedAs}` : ''})${wrote ? `; writer ${wrote.ticks} ticks, ${wrote.failures} failed, slowest ${wrote.slowest} ms` : ''}; load average ${row.load}`)
      }
      await api.stop()
      api = undefined
    }
    log('')
    log(`${connections} connections × ${duration} s per route, tokens of every developer in turn (${DEVELOPERS}${heavyToken ? ' and the heavy one' : ''}) or the heavy developer's alone, after each developer's first read (10 at a time); target with writes and the exact cache: p99 ≤ 250 ms`)
    log('| route | read cache | first read per developer p50 / p99 ms | req/s | p50 ms | p99 ms | requests | non-2xx/errors | load average (1, 5, 15 min) before → after |')
    log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |')
    for (const r of rows) log(`| ${r.route} | ${r.cache} | ${r.firstP50} / ${r.firstP99}${r.firstFailed > 0 ? ` (${r.firstFailed} failed)` : ''} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failures} | ${r.load} |`)
  } finally {
    await api?.stop()
    if (process.env.BENCH_KEEP !== '1' && !reuse) await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
    else if (loaded) log(`kept database ${database} (--scale ${scale}): BENCH_DATABASE=${database} reuses it`)
    log(`load average at the end ${load1()}`)
    await writeSession?.close()
    await session.close()
  }
}

await main()
