import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startOpsHttpServer } from '../../../src/adapters/http/ops-http-server.js'
import { createTokenVerifier } from '../../../src/adapters/http/read-api/bearer-token.js'
import { ANSWER_GRACE_MS, type ReadApiOptions, type ReadUseCases } from '../../../src/adapters/http/read-api/read-api.plugin.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import type { Logger } from '../../../src/application/ports/logger.port.js'
import { ReadsOverloaded, ReadTimedOut } from '../../../src/application/ports/read-model.port.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { ConfigError } from '../../../src/composition/config.js'
import { readApiHttpSettings } from '../../../src/composition/read-api-config.js'
import { openApiValidator } from '../../support/openapi.js'
import { RecordingLogger } from '../../support/recording-logger.js'
import { secretBytes, signToken } from '../../support/tokens.js'

// Issue 38.4 at the HTTP edge (real HTTP, use cases in memory): the per-developer rate limit, the
// answers for an overloaded or timed-out store read, CORS for the configured origins only.
const A = '6f1c0e2a-4b7d-4e5f-8a9b-0c1d2e3f4a5b'
const B = '0b6f2c4e-1d3a-4c5b-9e8f-7a6b5c4d3e2f'
const METRICS = { sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0, avgDurationSeconds: 0, views: { views: 0, closedViews: 0, totalViewSeconds: 0 } }
const reads = (sessionMetrics: ReadUseCases['sessionMetrics'] = async () => E.right(METRICS)): ReadUseCases => ({
  sessionMetrics,
  conversionFunnel: async () => E.right([]),
  funnelScope: async () => E.right([]),
})

const cleanup: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c()
})

const serve = async (read: ReadUseCases, options: Partial<ReadApiOptions> = {}, logger: Logger = silentLogger) => {
  const server = await startOpsHttpServer({
    host: '127.0.0.1', port: 0, logger,
    endpoints: { metrics: async () => ({ contentType: 'text/plain', body: '' }), readiness: async () => ({ ready: true, reasons: [] }) },
    readApi: { read, verifyToken: createTokenVerifier({ key: { kind: 'secret', secret: secretBytes() } }), ...options },
  })
  cleanup.push(() => server.close())
  return `http://127.0.0.1:${server.port}`
}
const bearer = async (developerId: string) => ({ authorization: `Bearer ${await signToken({ developer_id: developerId }, secretBytes())}` })
const PATH = '/v1/session-metrics?from=2026-11-01&to=2026-11-30'

describe('the read API protecting its store', () => {
  it('a burst from one developer gets 429 problems with Retry-After; another developer still gets 200', async () => {
    const url = await serve(reads(), { rateLimit: { max: 20, windowMs: 60_000 } })
    const [a, b] = [await bearer(A), await bearer(B)]
    const burst = await Promise.all(Array.from({ length: 60 }, () => fetch(`${url}${PATH}`, { headers: a })))
    const statuses = burst.map((r) => r.status)
    expect(statuses.filter((s) => s === 200)).toHaveLength(20)
    expect(statuses.filter((s) => s === 429)).toHaveLength(40)
    const limited = burst.find((r) => r.status === 429) as Response
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0)
    expect(await limited.json()).toMatchObject({ type: 'urn:dev-stats:problem:rate-limited', status: 429 })
    expect((await fetch(`${url}${PATH}`, { headers: b })).status).toBe(200)
  })

  it('no token is a 401 that does not use up a developer\'s budget', async () => {
    const url = await serve(reads(), { rateLimit: { max: 2, windowMs: 60_000 } })
    for (let i = 0; i < 5; i++) expect((await fetch(`${url}${PATH}`)).status).toBe(401)
    expect((await fetch(`${url}${PATH}`, { headers: await bearer(A) })).status).toBe(200)
  })

  it('a read refused for overload or ended for its time limit is a 503 problem with Retry-After, never a 500', async () => {
    for (const [error, type] of [[new ReadsOverloaded(4, 64), 'overloaded'], [new ReadTimedOut(10), 'read-timeout']] as const) {
      const url = await serve(reads(async () => { throw error }))
      const r = await fetch(`${url}${PATH}`, { headers: await bearer(A) })
      expect(r.status).toBe(503)
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await r.json()).toMatchObject({ type: `urn:dev-stats:problem:${type}`, status: 503 })
    }
  })

  it('a route that waits past the time limit and its grace answers 503 read-timeout, whatever it waits on', async () => {
    const never = new Promise<never>(() => undefined) // a store that stopped answering
    const url = await serve({ sessionMetrics: () => never, conversionFunnel: () => never, funnelScope: async () => E.right([]) }, { readTimeoutSeconds: 1 })
    for (const path of [PATH, '/v1/conversion-funnel?from=2026-11-01&to=2026-11-30']) {
      const started = Date.now()
      const r = await fetch(`${url}${path}`, { headers: await bearer(A) })
      const seconds = (Date.now() - started) / 1000
      expect(r.status).toBe(503)
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0)
      expect(await r.json()).toMatchObject({ type: 'urn:dev-stats:problem:read-timeout' })
      expect(seconds).toBeGreaterThanOrEqual(1 + ANSWER_GRACE_MS / 1000 - 0.05)
      expect(seconds).toBeLessThan(1 + ANSWER_GRACE_MS / 1000 + 2.5)
    }
  })

  it('logs no line for a 429 or a 400, a warning for a store that refused or ended a read, an error for anything else', async () => {
    const limitedLog = new RecordingLogger()
    const url = await serve(reads(), { rateLimit: { max: 2, windowMs: 60_000 } }, limitedLog)
    const a = await bearer(A)
    const statuses = await Promise.all(Array.from({ length: 20 }, () => fetch(`${url}${PATH}`, { headers: a }).then((r) => r.status)))
    expect(statuses.filter((s) => s === 429)).toHaveLength(18)
    expect((await fetch(`${url}/v1/session-metrics?from=2026-13-01&to=2026-11-30`, { headers: a })).status).toBe(400)
    expect(limitedLog.lines).toEqual([])

    for (const [error, level] of [[new ReadsOverloaded(4, 64), 'warn'], [new ReadTimedOut(10), 'warn'], [new TypeError('a bug'), 'error']] as const) {
      const log = new RecordingLogger()
      const failing = await serve(reads(async () => { throw error }), {}, log)
      await fetch(`${failing}${PATH}`, { headers: a })
      expect(log.lines.map((l) => [l.level, l.message])).toEqual([[level, 'HTTP endpoint failed']])
    }
  })

  it('the OpenAPI document declares the 429 and every 503 as they are sent: problem+json with an integer Retry-After', async () => {
    const seen = async (url: string, headers: Record<string, string>) => {
      const r = await fetch(`${url}${PATH}`, { headers })
      return { path: PATH, status: r.status, contentType: r.headers.get('content-type') ?? '', body: await r.json(), headers: r.headers }
    }
    const limitedUrl = await serve(reads(), { rateLimit: { max: 1, windowMs: 60_000 } })
    const doc = (await (await fetch(`${limitedUrl}/v1/openapi.json`)).json()) as { paths: Record<string, { get: { responses: Record<string, { headers?: object }> } }> }
    for (const path of ['/v1/session-metrics', '/v1/conversion-funnel']) {
      const responses = doc.paths[path]?.get.responses
      for (const status of ['429', '503']) expect(responses?.[status]?.headers, `${status} of ${path}`).toEqual({ 'Retry-After': { schema: { type: 'integer', minimum: 1 }, description: 'Seconds to wait before asking again.' } })
      expect(responses?.['401']?.headers).toEqual({ 'WWW-Authenticate': { schema: { type: 'string' }, description: 'Bearer challenge (RFC 6750).' } })
    }
    const validate = openApiValidator(doc)
    const a = await bearer(A)
    expect((await seen(limitedUrl, a)).status).toBe(200)
    const limited = await seen(limitedUrl, a)
    expect(limited.status).toBe(429)
    validate(limited)
    for (const error of [new ReadsOverloaded(4, 64), new ReadTimedOut(10), new StoreError('gone', true, 'ECONNREFUSED')]) {
      const refused = await seen(await serve(reads(async () => { throw error })), a)
      expect(refused.status).toBe(503)
      validate(refused)
    }
    const unauthorized = await seen(limitedUrl, {})
    expect(unauthorized.status).toBe(401)
    validate(unauthorized)
  })

  it('CORS only for the configured origins, preflight included; none without the setting', async () => {
    const url = await serve(reads(), { corsOrigins: ['https://dash.example.com'] })
    const allowed = await fetch(`${url}${PATH}`, { headers: { ...(await bearer(A)), origin: 'https://dash.example.com' } })
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://dash.example.com')
    const other = await fetch(`${url}${PATH}`, { headers: { ...(await bearer(A)), origin: 'https://evil.example.com' } })
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const preflight = await fetch(`${url}${PATH}`, { method: 'OPTIONS', headers: { origin: 'https://dash.example.com', 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' } })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/authorization/i)
    const closed = await serve(reads())
    const plain = await fetch(`${closed}${PATH}`, { headers: { ...(await bearer(A)), origin: 'https://dash.example.com' } })
    expect(plain.headers.get('access-control-allow-origin')).toBeNull()
    expect((await fetch(`${closed}${PATH}`, { method: 'OPTIONS' })).status).toBe(405)
  })
})

describe('readApiHttpSettings', () => {
  it('defaults to 60 requests per 10 s per developer and no CORS; 0 turns the limit off', () => {
    expect(readApiHttpSettings({})).toEqual({ rateLimit: { max: 60, windowMs: 10_000 }, corsOrigins: [] })
    expect(readApiHttpSettings({ DEV_STATS_READ_API_RATE_LIMIT: '0' })).toEqual({ corsOrigins: [] })
    expect(readApiHttpSettings({ DEV_STATS_READ_API_RATE_LIMIT: '5', DEV_STATS_READ_API_RATE_WINDOW_SECONDS: '1', DEV_STATS_READ_API_CORS_ORIGINS: 'https://a.example.com, http://localhost:3000' }))
      .toEqual({ rateLimit: { max: 5, windowMs: 1000 }, corsOrigins: ['https://a.example.com', 'http://localhost:3000'] })
  })

  it.each([
    ['DEV_STATS_READ_API_RATE_LIMIT', 'many'],
    ['DEV_STATS_READ_API_RATE_WINDOW_SECONDS', '0'],
    ['DEV_STATS_READ_API_CORS_ORIGINS', 'https://a.example.com/path'],
    ['DEV_STATS_READ_API_CORS_ORIGINS', '*'],
  ])('%s=%s is refused naming it', (name, value) => {
    expect(() => readApiHttpSettings({ [name]: value })).toThrow(ConfigError)
    expect(() => readApiHttpSettings({ [name]: value })).toThrow(name)
  })
})
