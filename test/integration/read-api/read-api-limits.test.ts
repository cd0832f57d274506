import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { guid } from '../../support/events.js'
import { freePort } from '../../support/http.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { secretBytes, signToken, TEST_SECRET } from '../../support/tokens.js'

// Issue 38.4 through `npm start` on the real ClickHouse server: the read API protects its store.
// With the default bounds, a burst of 200 calls from one developer gets 429s (default 60 per 10 s)
// while another developer's calls, sent in the middle of that burst, all answer 200; CORS headers
// go to the configured origin only. With the cache off and one read at a time, a burst of many
// developers' reads gets 503 `overloaded` with Retry-After beyond the queue, never a 500. Neither
// writes an error line to the log.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const database = `read_limits_${run}`
const secretFile = join(mkdtempSync(join(tmpdir(), 'read-limits-')), 'jwt-secret')
writeFileSync(secretFile, `${TEST_SECRET}\n`, { mode: 0o600 })
afterAll(() => removeRunResources([], [database]))

const DASHBOARD = 'https://dashboards.dev-stats.test'
const PATH = '/v1/session-metrics?from=2026-11-01&to=2026-11-30'
const call = async (base: string, developerId: string, headers: Record<string, string> = {}) => {
  const r = await fetch(`${base}${PATH}`, { headers: { ...headers, authorization: `Bearer ${await signToken({ developer_id: developerId }, secretBytes())}` } })
  return { developerId, status: r.status, retryAfter: r.headers.get('retry-after'), allowOrigin: r.headers.get('access-control-allow-origin'), type: ((await r.json()) as { type?: string }).type }
}

/** `npm start` on its own database with the read API on, ready to answer; `settings` on top. */
const service = async (settings: Record<string, string>) => {
  const port = await freePort()
  const env = {
    DEV_STATS_BROKER: 'memory',
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
    DEV_STATS_CLICKHOUSE_DATABASE: database,
    DEV_STATS_HTTP_HOST: '127.0.0.1',
    DEV_STATS_HTTP_PORT: String(port),
    DEV_STATS_READ_API_JWT_SECRET_FILE: secretFile,
    DEV_STATS_LOG_LEVEL: 'info',
    ...settings,
  }
  expect(npmRun(['migrate'], env)).toMatchObject({ code: 0 })
  const started = new NpmStart(env)
  await eventuallyAsync(() => started.logLine(/^consuming from/) !== undefined || started.output.includes('dev-stats ingest:'), 90_000, `npm start:\n${started.output}`)
  return { started, base: `http://127.0.0.1:${port}` }
}

const errorLines = (output: string) => output.split('\n').filter((l) => l.startsWith('{') && (JSON.parse(l) as { level: number }).level >= 50)

describe('npm start: the read API protecting its store', () => {
  it('a burst of 200 calls from one developer gets 429s while another developer\'s calls in it answer 200; CORS for the configured origin only', async () => {
    const { started, base } = await service({ DEV_STATS_READ_API_CORS_ORIGINS: DASHBOARD })
    try {
      expect(started.logLine(/^serving /)).toMatchObject({ rateLimit: { max: 60, windowMs: 10_000 }, corsOrigins: [DASHBOARD] })
      const [a, b] = [guid(), guid()]
      // every 40th call of the burst is B's, so B's calls are in flight while A's budget runs out
      const burst = await Promise.all(Array.from({ length: 205 }, (_, i) => call(base, i % 41 === 20 ? b : a)))
      const ofA = burst.filter((r) => r.developerId === a)
      const ofB = burst.filter((r) => r.developerId === b)
      expect([ofA.length, ofB.length]).toEqual([200, 5])
      expect(ofB.map((r) => r.status)).toEqual([200, 200, 200, 200, 200])
      expect(ofA.filter((r) => r.status === 200)).toHaveLength(60)
      const limited = ofA.filter((r) => r.status === 429)
      expect(limited).toHaveLength(140)
      expect(limited.every((r) => Number(r.retryAfter) > 0 && r.type === 'urn:dev-stats:problem:rate-limited')).toBe(true)

      const c = guid()
      expect(await call(base, c, { origin: DASHBOARD })).toMatchObject({ status: 200, allowOrigin: DASHBOARD })
      expect(await call(base, c, { origin: 'https://elsewhere.dev-stats.test' })).toMatchObject({ status: 200, allowOrigin: null })
      const preflight = await fetch(`${base}${PATH}`, { method: 'OPTIONS', headers: { origin: DASHBOARD, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } })
      expect([preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([204, DASHBOARD])
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i)
      expect(errorLines(started.output)).toEqual([])
    } finally {
      await started.stop()
    }
  })

  it('with one read at a time and two waiting, a burst of 40 developers\' uncached reads gets 503 overloaded with Retry-After, the rest 200', async () => {
    const { started, base } = await service({ DEV_STATS_READ_CACHE_ENTRIES: '0', DEV_STATS_READ_MAX_CONCURRENT_QUERIES: '1', DEV_STATS_READ_MAX_QUEUED_QUERIES: '2' })
    try {
      const many = await Promise.all(Array.from({ length: 40 }, () => call(base, guid())))
      const refused = many.filter((r) => r.status === 503)
      expect(refused.length).toBeGreaterThan(0)
      expect(refused.every((r) => Number(r.retryAfter) > 0 && r.type === 'urn:dev-stats:problem:overloaded')).toBe(true)
      expect(many.filter((r) => r.status === 200).length).toBeGreaterThan(0)
      expect(many.every((r) => r.status === 200 || r.status === 503)).toBe(true)
      expect(errorLines(started.output)).toEqual([])
    } finally {
      await started.stop()
    }
  })
})
