import * as E from 'fp-ts/lib/Either.js'
import { afterEach, describe, expect, it } from 'vitest'
import { startOpsHttpServer } from '../../../src/adapters/http/ops-http-server.js'
import { createTokenVerifier } from '../../../src/adapters/http/read-api/bearer-token.js'
import type { ReadUseCases } from '../../../src/adapters/http/read-api/read-api.plugin.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { PortError } from '../../../src/application/ports/retriable.js'
import type { Logger } from '../../../src/application/ports/logger.port.js'
import { loadConfig } from '../../../src/composition/config.js'
import { serveOps } from '../../../src/composition/ops.js'
import { createDevStatsIngest } from '../../../src/index.js'
import { freePort } from '../../support/http.js'
import { secretBytes, signToken } from '../../support/tokens.js'

const DEV = '6f1c0e2a-4b7d-4e5f-8a9b-0c1d2e3f4a5b'
const METRICS = { sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0, avgDurationSeconds: 0, views: { views: 0, closedViews: 0, totalViewSeconds: 0 } }

/** Use cases that count their calls and answer as told. */
const countingReads = (answer: () => Promise<unknown>) => {
  const calls: string[] = []
  const read: ReadUseCases = {
    sessionMetrics: async () => (calls.push('sessionMetrics'), (await answer()) as E.Either<never, typeof METRICS>),
    conversionFunnel: async () => (calls.push('conversionFunnel'), E.right([])),
    funnelScope: async () => (calls.push('funnelScope'), E.right([])),
  }
  return { read, calls }
}

describe('the ops HTTP server alone', () => {
  it('a failing endpoint is a 500 problem that tells nothing of the failure; the log has it', async () => {
    const lines: unknown[] = []
    const logger: Logger = { ...silentLogger, error: (fields: unknown) => void lines.push(fields) }
    const server = await startOpsHttpServer({
      host: '127.0.0.1', port: 0, logger,
      endpoints: { metrics: async () => { throw new Error('connect ECONNREFUSED ch-internal.example:8123 (user admin)') }, readiness: async () => ({ ready: true, reasons: [] }) },
    })
    try {
      const r = await fetch(`http://127.0.0.1:${server.port}/metrics`)
      expect(r.status).toBe(500)
      expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/)
      const body = await r.text()
      expect(body).not.toMatch(/ECONNREFUSED|ch-internal|admin/)
      expect(JSON.parse(body)).toMatchObject({ type: 'urn:dev-stats:problem:internal-error', status: 500 })
      expect(JSON.stringify(lines)).toContain('ch-internal.example')
    } finally {
      await server.close()
    }
  })
})

describe('the ops HTTP server with the read API mounted (real HTTP, in-memory use cases)', () => {
  const cleanup: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c()
  })
  const serve = async (read: ReadUseCases, logger: Logger = silentLogger) => {
    const server = await startOpsHttpServer({
      host: '127.0.0.1', port: 0, logger,
      endpoints: { metrics: async () => ({ contentType: 'text/plain', body: 'm 1\n' }), readiness: async () => ({ ready: true, reasons: [] }) },
      readApi: { read, verifyToken: createTokenVerifier({ key: { kind: 'secret', secret: secretBytes() } }) },
    })
    cleanup.push(() => server.close())
    return `http://127.0.0.1:${server.port}`
  }

  it('runs no use case for a 401 or a 400; /metrics and /health stay as they were; other methods are 405', async () => {
    const { read, calls } = countingReads(async () => E.right(METRICS))
    const url = await serve(read)
    const token = await signToken({ developer_id: DEV }, secretBytes())
    expect((await fetch(`${url}/v1/session-metrics?from=2026-11-01&to=2026-11-30`)).status).toBe(401)
    expect((await fetch(`${url}/v1/session-metrics?from=2026-11-30&to=2026-11-01`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(400)
    expect((await fetch(`${url}/v1/conversion-funnel?from=2026-11-01&to=2026-11-30&layoutId=x`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(400)
    expect(calls).toEqual([])
    expect((await fetch(`${url}/v1/session-metrics?from=2026-11-01&to=2026-11-30`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)
    expect(calls).toEqual(['sessionMetrics'])
    expect(await (await fetch(`${url}/metrics`)).text()).toBe('m 1\n')
    expect(await (await fetch(`${url}/health/ready`)).json()).toEqual({ status: 'ready', reasons: [] })
    const post = await fetch(`${url}/v1/session-metrics`, { method: 'POST' })
    expect(post.status).toBe(405)
    expect(post.headers.get('allow')).toBe('GET, HEAD')
    expect(post.headers.get('content-type')).toMatch(/^application\/problem\+json/)
    expect(await post.json()).toMatchObject({ type: 'urn:dev-stats:problem:method-not-allowed', status: 405 })
    const missing = await fetch(`${url}/nowhere`)
    expect(missing.status).toBe(404)
    expect(((await missing.json()) as { paths: string[] }).paths).toContain('/v1/conversion-funnel')
  })

  it('a store that cannot be reached is a 503 problem with Retry-After; a bug is a 500 that tells nothing and is logged', async () => {
    const logged: string[] = []
    const logger: Logger = { ...silentLogger, error: (fields: Record<string, unknown>) => void logged.push(String(fields['err'])) }
    let failure: Error = new PortError('connect ECONNREFUSED 127.0.0.1:18123', true)
    const { read } = countingReads(async () => {
      throw failure
    })
    const url = await serve(read, logger)
    const token = await signToken({ developer_id: DEV }, secretBytes())
    const ask = () => fetch(`${url}/v1/session-metrics?from=2026-11-01&to=2026-11-30`, { headers: { authorization: `Bearer ${token}` } })
    const down = await ask()
    expect(down.status).toBe(503)
    expect(down.headers.get('retry-after')).toBe('5')
    expect(await down.json()).toMatchObject({ type: 'urn:dev-stats:problem:store-unavailable', status: 503 })
    failure = new TypeError("Cannot read properties of undefined (reading 'secret internals')")
    const bug = await ask()
    expect(bug.status).toBe(500)
    expect(await bug.text()).not.toContain('secret internals')
    expect(logged.some((l) => l.includes('secret internals'))).toBe(true)
  })

  it('serveOps: the /v1 routes exist only with token settings', async () => {
    for (const settings of [undefined, { key: { kind: 'secret' as const, secret: secretBytes() } }]) {
      const port = await freePort()
      const config = loadConfig({ DEV_STATS_HTTP_PORT: String(port), DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_LOG_LEVEL: 'silent' })
      const ops = await serveOps(createDevStatsIngest({ config }), config.http, silentLogger, settings)
      cleanup.push(async () => ops?.close())
      const token = await signToken({ developer_id: DEV }, secretBytes())
      const r = await fetch(`http://127.0.0.1:${port}/v1/session-metrics?from=2026-11-01&to=2026-11-30`, { headers: { authorization: `Bearer ${token}` } })
      expect(r.status).toBe(settings ? 200 : 404)
      if (settings) expect(await r.json()).toEqual({ developerId: DEV, from: '2026-11-01', to: '2026-11-30', ...METRICS })
    }
  })
})
