import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { resolveConsumer } from '../../../src/application/consumers/consumer-topics.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload } from '../../support/events.js'
import { freePort } from '../../support/http.js'
import { KAFKA_ADAPTERS, KAFKA_BROKERS, kafkaBroker } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { openApiValidator, type SeenResponse } from '../../support/openapi.js'
import { removeRunResources } from '../../support/run-resources.js'
import { secretBytes, signToken, TEST_SECRET } from '../../support/tokens.js'

// Issue 21 "Done when": `npm start` with DEV_STATS_READ_API_JWT_SECRET_FILE serves the read API on
// DEV_STATS_HTTP_PORT beside /metrics, over what its consumers ingest from the real broker into
// the real ClickHouse server, with each Kafka client; without a key the routes do not exist.
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const createdTopics: string[] = []
const databases: string[] = []
const secretFile = join(mkdtempSync(join(tmpdir(), 'read-api-secret-')), 'jwt-secret')
writeFileSync(secretFile, `${TEST_SECRET}\n`, { mode: 0o600 })

afterAll(() => removeRunResources(createdTopics, databases))

const deployment = async (adapter: string) => {
  const suffix = `read-${adapter}-${run}`
  const database = `npm_start_read_${adapter}_${run}`
  const port = await freePort()
  const env: Record<string, string> = {
    DEV_STATS_BROKER: adapter,
    DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
    DEV_STATS_CLICKHOUSE_DATABASE: database,
    DEV_STATS_FLUSH_INTERVAL_MS: '300',
    DEV_STATS_HTTP_HOST: '127.0.0.1',
    DEV_STATS_HTTP_PORT: String(port),
    DEV_STATS_READ_API_JWT_SECRET_FILE: secretFile,
    DEV_STATS_LOG_LEVEL: 'info',
  }
  for (const c of CONSUMERS) {
    env[`DEV_STATS_TOPIC_${c.key}`] = `${c.topic}.${suffix}`
    env[`DEV_STATS_GROUP_${c.key}`] = `${c.groupId}.${suffix}`
  }
  const consumers = CONSUMERS.map((c) => resolveConsumer(c, { [c.key]: { topic: env[`DEV_STATS_TOPIC_${c.key}`], group: env[`DEV_STATS_GROUP_${c.key}`] } }))
  databases.push(database)
  createdTopics.push(...consumers.flatMap((c) => [c.topics.source, c.topics.deadLetter, c.topics.retry]))
  const topicOf = (key: string) => consumers.find((c) => c.spec.key === key)?.topics.source ?? ''
  return { env, topicOf, base: `http://127.0.0.1:${port}` }
}

const get = async (base: string, p: string, token?: string): Promise<SeenResponse> => {
  const r = await fetch(`${base}${p}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
  return { path: p, status: r.status, contentType: r.headers.get('content-type') ?? '', body: await r.json() }
}

describe.each(KAFKA_ADAPTERS)('npm start with the read API on (%s)', (adapter) => {
  it('answers both routes over what it ingested: 200 with a valid token, 401 without, 400 for bad parameters, an OpenAPI 3.1 document', async () => {
    const d = await deployment(adapter)
    expect(npmRun(['migrate'], d.env)).toMatchObject({ code: 0 })
    const topics = npmRun(['topics'], d.env)
    expect(topics.code, topics.output).toBe(0)
    const service = new NpmStart(d.env)
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 90_000, `npm start consuming:\n${service.output}`)
      expect(service.logLine(/^serving /)?.['readApi']).toBe('secret')

      const developer = guid()
      const p = path(developer)
      const sessionId = guid()
      const broker = kafkaBroker(adapter)
      await broker.producer().publish([binaryRecord(d.topicOf('PROPERTY_OBJECT_UPSERTED'), propertyObjectUpsertedPayload(p))])
      await broker.producer().publish([
        binaryRecord(d.topicOf('ACTION_TRACKED'), viewActionPayload(p, { SessionId: sessionId })),
        binaryRecord(d.topicOf('SESSION_ENDED'), sessionEndedPayload({ SessionId: sessionId, DurationSeconds: 1234 })),
      ])
      await broker.close()

      const token = await signToken({ developer_id: developer }, secretBytes())
      const seen: SeenResponse[] = []
      const ask = async (p2: string, t?: string) => {
        const r = await get(d.base, p2, t)
        seen.push(r)
        return r
      }
      let metrics: SeenResponse | undefined
      await eventuallyAsync(async () => {
        metrics = await ask('/v1/session-metrics?from=2026-11-30&to=2026-11-30', token)
        return metrics.status === 200 && (metrics.body as { sessions: number }).sessions === 1
      }, 90_000, `the ingested session through the API (last: ${JSON.stringify(metrics)}):\n${service.output.slice(-3000)}`)
      expect(metrics?.body).toMatchObject({ developerId: developer, sessions: 1, totalDurationSeconds: 1234, views: { views: 1 } })
      const views = (r: SeenResponse) => (r.body as { stages?: { stage: string; count: number }[] }).stages?.find((s) => s.stage === 'Views')?.count
      let funnel: SeenResponse | undefined
      await eventuallyAsync(async () => {
        funnel = await ask('/v1/conversion-funnel?from=2026-11-30&to=2026-11-30', token)
        return funnel.status === 200 && views(funnel) === 1
      }, 60_000, `the ingested view in the funnel (last: ${JSON.stringify(funnel)})`)

      expect((await ask('/v1/session-metrics?from=2026-11-30&to=2026-11-30')).status).toBe(401)
      expect((await ask('/v1/conversion-funnel?from=2026-11-30&to=2026-11-30', `${token}x`)).status).toBe(401)
      expect((await ask('/v1/session-metrics?from=2026-11-30&to=2026-11-29', token)).status).toBe(400)
      expect((await ask(`/v1/conversion-funnel?from=2026-11-30&to=2026-11-30&projectId=${encodeURIComponent("' OR 1=1 --")}`, token)).status).toBe(400)

      const doc = await fetch(`${d.base}/v1/openapi.json`)
      expect(doc.status).toBe(200)
      const document = (await doc.json()) as { paths: Record<string, unknown> }
      expect(Object.keys(document.paths).sort()).toEqual(['/v1/conversion-funnel', '/v1/session-metrics'])
      const validate = openApiValidator(document)
      for (const r of seen) validate(r)
      expect((await fetch(`${d.base}/health/live`)).status).toBe(200)
      expect((await fetch(`${d.base}/metrics`)).status).toBe(200)
    } finally {
      await service.stop()
    }
  })
})

describe('npm start without a read API key', () => {
  it('has no /v1 routes (404) and still serves /metrics and /health', async () => {
    const port = await freePort()
    const service = new NpmStart({ DEV_STATS_BROKER: 'memory', DEV_STATS_STORE: 'memory', DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_HTTP_PORT: String(port), DEV_STATS_LOG_LEVEL: 'info', DEV_STATS_READ_API_JWT_SECRET_FILE: '' })
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 60_000, `npm start:\n${service.output}`)
      expect(service.logLine(/^serving /)?.['readApi']).toBe('off')
      const base = `http://127.0.0.1:${port}`
      const token = await signToken({ developer_id: guid() }, secretBytes())
      for (const p of ['/v1/session-metrics?from=2026-11-30&to=2026-11-30', '/v1/conversion-funnel?from=2026-11-30&to=2026-11-30', '/v1/openapi.json']) {
        expect((await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${token}` } })).status, p).toBe(404)
      }
      expect((await fetch(`${base}/health/live`)).status).toBe(200)
    } finally {
      await service.stop()
    }
  })
})
