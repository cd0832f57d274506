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
// A burst of 200 calls from one developer gets 429s (default 60 per 10 s) while another developer
// is answered; with the cache off and one read at a time, a burst of many developers' reads gets
// 503 `overloaded` with Retry-After beyond the queue, never a 500, and every other call a 200.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const database = `read_limits_${run}`
const secretFile = join(mkdtempSync(join(tmpdir(), 'read-limits-')), 'jwt-secret')
writeFileSync(secretFile, `${TEST_SECRET}\n`, { mode: 0o600 })
afterAll(() => removeRunResources([], [database]))

const PATH = '/v1/session-metrics?from=2026-11-01&to=2026-11-30'
const call = async (base: string, developerId: string) => {
  const r = await fetch(`${base}${PATH}`, { headers: { authorization: `Bearer ${await signToken({ developer_id: developerId }, secretBytes())}` } })
  return { status: r.status, retryAfter: r.headers.get('retry-after'), type: ((await r.json()) as { type?: string }).type }
}

describe('npm start: the read API protecting its store', () => {
  it('rate-limits a developer\'s burst and refuses reads beyond the queue with 503 + Retry-After', async () => {
    const port = await freePort()
    const env = {
      DEV_STATS_BROKER: 'memory',
      DEV_STATS_STORE: 'clickhouse',
      DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
      DEV_STATS_CLICKHOUSE_DATABASE: database,
      DEV_STATS_HTTP_HOST: '127.0.0.1',
      DEV_STATS_HTTP_PORT: String(port),
      DEV_STATS_READ_API_JWT_SECRET_FILE: secretFile,
      DEV_STATS_READ_CACHE_ENTRIES: '0',
      DEV_STATS_READ_MAX_CONCURRENT_QUERIES: '1',
      DEV_STATS_READ_MAX_QUEUED_QUERIES: '2',
      DEV_STATS_LOG_LEVEL: 'info',
    }
    expect(npmRun(['migrate'], env)).toMatchObject({ code: 0 })
    const service = new NpmStart(env)
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 90_000, `npm start:\n${service.output}`)
      expect(service.logLine(/^serving /)?.['rateLimit']).toEqual({ max: 60, windowMs: 10_000 })
      const base = `http://127.0.0.1:${port}`

      const [a, b] = [guid(), guid()]
      const burst = await Promise.all(Array.from({ length: 200 }, () => call(base, a)))
      const limited = burst.filter((r) => r.status === 429)
      expect(limited.length).toBeGreaterThanOrEqual(140)
      expect(limited.every((r) => Number(r.retryAfter) > 0 && r.type === 'urn:dev-stats:problem:rate-limited')).toBe(true)
      expect(burst.every((r) => [200, 429, 503].includes(r.status))).toBe(true)
      let other = await call(base, b)
      await eventuallyAsync(async () => (other = await call(base, b)).status === 200, 10_000, `developer B answered (last ${JSON.stringify(other)})`)

      const many = await Promise.all(Array.from({ length: 40 }, () => call(base, guid())))
      const refused = many.filter((r) => r.status === 503)
      expect(refused.length).toBeGreaterThan(0)
      expect(refused.every((r) => Number(r.retryAfter) > 0 && r.type === 'urn:dev-stats:problem:overloaded')).toBe(true)
      expect(many.filter((r) => r.status === 200).length).toBeGreaterThan(0)
      expect(many.every((r) => r.status === 200 || r.status === 503)).toBe(true)
    } finally {
      await service.stop()
    }
  })
})
