// `npm run bench:read`: the read API under load on the ClickHouse server (spec §8, issue 21).
// Loads 1,000,000 view facts, 1,000,000 session facts and a year of funnel rows for 100
// developers into a database of its own, starts the API in a child process, and runs autocannon
// (50 connections, 20 s) per route with tokens of all 100 developers in turn: with the read cache
// off, on, and on while a writer inserts into every fact table once a second (as a running ingest
// does), without and with DEV_STATS_READ_CACHE_MAX_STALE_SECONDS=10 (BENCH_CACHE=<name> selects
// one). Before each load, every developer's first read is timed on its own (10 at a time): with
// the cache on, that is the cost of an empty cache. Prints req/s and p50/p99 per route. BENCH_KEEP=1 keeps the database; BENCH_DURATION /
// BENCH_CONNECTIONS override.
import { spawn } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import { createClient } from '@clickhouse/client'
import autocannon from 'autocannon'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { DEVELOPERS, developerId, ingestTick, loadBenchData } from './load.js'
import { signToken } from './tokens.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const url = process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123'
// BENCH_DATABASE: reuse a database a BENCH_KEEP=1 run loaded (skips the load)
const reuse = process.env.BENCH_DATABASE
const database = reuse ?? `bench_read_${Date.now().toString(36)}`
const duration = Number(process.env.BENCH_DURATION ?? 20)
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50)
const secret = `bench-read-${'x'.repeat(32)}`
const log = (line: string) => process.stdout.write(`${line}\n`)

const ROUTES = [
  { name: 'GET /v1/session-metrics (a year)', path: '/v1/session-metrics?from=2026-01-01&to=2026-12-31' },
  { name: 'GET /v1/session-metrics (30 days)', path: '/v1/session-metrics?from=2026-06-01&to=2026-06-30' },
  { name: 'GET /v1/conversion-funnel (a year)', path: '/v1/conversion-funnel?from=2026-01-01&to=2026-12-31' },
  { name: 'GET /v1/conversion-funnel (30 days)', path: '/v1/conversion-funnel?from=2026-06-01&to=2026-06-30' },
]

const CACHES = [
  { name: 'off', entries: 0, maxStaleSeconds: 0, writes: false },
  { name: 'on', entries: 10_000, maxStaleSeconds: 0, writes: false },
  { name: 'on, writes', entries: 10_000, maxStaleSeconds: 0, writes: true },
  { name: 'on, writes, stale ≤ 10 s', entries: 10_000, maxStaleSeconds: 10, writes: true },
].filter((c) => !process.env.BENCH_CACHE || c.name === process.env.BENCH_CACHE)

/** Inserts into every fact table once a second until stopped. */
const writer = (): { stop: () => Promise<void> } => {
  const client = createClient({ url })
  let running = true
  const loop = (async () => {
    while (running) {
      const started = Date.now()
      await ingestTick(client, database)
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (Date.now() - started))))
    }
  })()
  return { stop: async () => ((running = false), await loop.finally(() => client.close())) }
}

const startApi = async (cache: (typeof CACHES)[number]): Promise<{ port: number; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/read/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CLICKHOUSE_URL: url, BENCH_DATABASE: database, BENCH_SECRET: secret, BENCH_READ_CACHE_ENTRIES: String(cache.entries), BENCH_READ_CACHE_MAX_STALE_SECONDS: String(cache.maxStaleSeconds) },
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
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly failures: number
}

const load = async (port: number, path: string, tokens: readonly string[]): Promise<Omit<Row, 'route' | 'cache' | 'firstP50' | 'firstP99'>> => {
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
  }
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0

/** Every developer's first read of the route, 10 at a time; latencies in ms. */
const firstReads = async (port: number, path: string, tokens: readonly string[]): Promise<{ p50: number; p99: number }> => {
  const times: number[] = []
  for (let i = 0; i < tokens.length; i += 10) {
    await Promise.all(
      tokens.slice(i, i + 10).map(async (t) => {
        const started = performance.now()
        const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Bearer ${t}` } })
        await res.arrayBuffer()
        if (res.status !== 200) throw new Error(`${path}: ${res.status}`)
        times.push(performance.now() - started)
      }),
    )
  }
  times.sort((a, b) => a - b)
  return { p50: Math.round(percentile(times, 50)), p99: Math.round(percentile(times, 99)) }
}

const main = async (): Promise<void> => {
  const session = serverSession({ url, user: 'default', password: '', database })
  const version = (await session.select<{ v: string }>(sql`SELECT version() AS v`))[0]?.v
  log(`machine: ${cpus().length} × ${cpus()[0]?.model.trim()}, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ClickHouse ${version} at ${url} (same machine)`)
  if (!reuse) await migrate(session)
  let api: Awaited<ReturnType<typeof startApi>> | undefined
  try {
    if (reuse) log(`reusing the data of ${reuse}`)
    else await loadBenchData(url, database, log)
    const tokens = await Promise.all(Array.from({ length: DEVELOPERS }, (_, d) => signToken(developerId(d), secret)))
    const rows: Row[] = []
    for (const cache of CACHES) {
      api = await startApi(cache)
      for (const route of ROUTES.filter((r) => !process.env.BENCH_ONLY || r.name.includes(process.env.BENCH_ONLY))) {
        const first = await firstReads(api.port, route.path, tokens)
        const writes = cache.writes ? writer() : undefined
        const r = await load(api.port, route.path, tokens)
        await writes?.stop()
        rows.push({ route: route.name, cache: cache.name, firstP50: first.p50, firstP99: first.p99, ...r })
        log(`${route.name}, cache ${cache.name}: first reads p50 ${first.p50} ms, p99 ${first.p99} ms; load ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.requests} requests, ${r.failures} failed)`)
      }
      await api.stop()
      api = undefined
    }
    log('')
    log(`${connections} connections × ${duration} s per route, tokens of ${DEVELOPERS} developers in turn, after each developer's first read (10 at a time); target p99 ≤ 250 ms`)
    log('| route | read cache | first read per developer p50 / p99 ms | req/s | p50 ms | p99 ms | requests | non-2xx/errors |')
    log('| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |')
    for (const r of rows) log(`| ${r.route} | ${r.cache} | ${r.firstP50} / ${r.firstP99} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failures} |`)
  } finally {
    await api?.stop()
    if (process.env.BENCH_KEEP !== '1' && !reuse) await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
    else log(`kept database ${database}`)
    await session.close()
  }
}

await main()
