// `npm run bench:read`: the read API under load on the ClickHouse server (spec §8, issue 21).
// Loads 1,000,000 view facts, 1,000,000 session facts and a year of funnel rows for 100
// developers into a database of its own, starts the API in a child process, and runs autocannon
// (50 connections, 20 s) per route with tokens of all 100 developers in turn. Prints req/s and
// p50/p99 per route. BENCH_KEEP=1 keeps the database; BENCH_DURATION / BENCH_CONNECTIONS override.
import { spawn } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { DEVELOPERS, developerId, loadBenchData } from './load.js'
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

const startApi = async (): Promise<{ port: number; stop: () => Promise<void> }> => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/read/server.ts'], {
    cwd: ROOT,
    env: { ...process.env, BENCH_CLICKHOUSE_URL: url, BENCH_DATABASE: database, BENCH_SECRET: secret },
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
  readonly rps: number
  readonly p50: number
  readonly p99: number
  readonly requests: number
  readonly failures: number
}

const load = async (port: number, path: string, tokens: readonly string[]): Promise<Omit<Row, 'route'>> => {
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
    api = await startApi()
    const rows: Row[] = []
    for (const route of ROUTES.filter((r) => !process.env.BENCH_ONLY || r.name.includes(process.env.BENCH_ONLY))) {
      // one request per developer first, so the first second does not measure cold caches only
      for (const t of tokens.slice(0, 5)) await fetch(`http://127.0.0.1:${api.port}${route.path}`, { headers: { authorization: `Bearer ${t}` } })
      const r = await load(api.port, route.path, tokens)
      rows.push({ route: route.name, ...r })
      log(`${route.name}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms (${r.requests} requests, ${r.failures} failed)`)
    }
    log('')
    log(`${connections} connections × ${duration} s per route, tokens of ${DEVELOPERS} developers in turn; target p99 ≤ 250 ms`)
    log('| route | req/s | p50 ms | p99 ms | requests | non-2xx/errors |')
    log('| --- | ---: | ---: | ---: | ---: | ---: |')
    for (const r of rows) log(`| ${r.route} | ${r.rps.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.requests} | ${r.failures} |`)
  } finally {
    await api?.stop()
    if (process.env.BENCH_KEEP !== '1' && !reuse) await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
    else log(`kept database ${database}`)
    await session.close()
  }
}

await main()
