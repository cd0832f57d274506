import { randomUUID } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { getDeveloperSessionMetrics } from '../../../src/application/read/get-developer-session-metrics.js'
import type { Guid } from '../../../src/domain/guid.js'
import {
  EMPTY, binaryRecord, messageIdOf, path, propertyObjectUpsertedPayload, sessionEndedPayload, structuredRecord, viewEndedPayload,
} from '../../support/events.js'
import { KAFKA_ADAPTERS, kafkaBroker, readTopic } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { npm, secrets, secureClickHouse, secureEnv, secureKafkaOptions, service, startSecureInfra, type Child, type Run } from './secure-infra.js'

// Issue 12: the session-ended acceptance cases of e2e-acceptance.test.ts through `npm start` on a
// Kafka SASL_SSL (SCRAM-SHA-512) listener and a ClickHouse HTTPS port, with each broker adapter,
// secrets from _FILE settings; then the four connection failures of each side as `npm start`
// runs (exit 1, a message naming the setting, in bounded time). No run's output holds a password.
const id = randomUUID().slice(0, 8)
let stopInfra = (): void => undefined
let env: Record<string, string>
let passwords: string[]
let clickhouse: ClickHouseSession

const expectNoSecret = (run: { output: string }): void => {
  for (const p of passwords) expect(run.output.includes(p), `a password in the output:\n${run.output}`).toBe(false)
}

beforeAll(async () => {
  stopInfra = startSecureInfra()
  env = { ...secureEnv(), DEV_STATS_CLICKHOUSE_DATABASE: `secure_${id}`, DEV_STATS_STORE: 'clickhouse', DEV_STATS_HTTP_PORT: '0', DEV_STATS_FLUSH_INTERVAL_MS: '200' }
  passwords = secrets(env)
  clickhouse = secureClickHouse(env)
  const migrated = await npm(['run', 'migrate'], env)
  expect(migrated.code, migrated.output).toBe(0)
  expectNoSecret(migrated)
}, 600_000)

afterAll(async () => {
  await clickhouse?.command(sql`DROP DATABASE IF EXISTS ${ident(`secure_${id}`)}`).catch(() => undefined)
  await clickhouse?.close()
  stopInfra()
}, 120_000)

interface SessionRow { FactId: string; SourceEventId: string; SessionId: string; UserId: string | null; ViewerKind: string; TenantId: string; StartedAt: string; EventTime: string; DurationSeconds: number }
const sessionRows = (): Promise<SessionRow[]> =>
  clickhouse.select<SessionRow>(sql`SELECT FactId, SourceEventId, toString(SessionId) AS SessionId, UserId, ViewerKind, toString(TenantId) AS TenantId,
    toString(StartedAt) AS StartedAt, toString(EventTime) AS EventTime, DurationSeconds FROM ${ident(`secure_${id}`)}.session_facts`)

describe.each(KAFKA_ADAPTERS)('session-ended over SASL_SSL and HTTPS, npm start with %s', (adapter) => {
  const topic = `secure.sessions.${adapter}.${id}`
  const views = `secure.views.${adapter}.${id}`
  const dims = `secure.dims.${adapter}.${id}`
  let run: Child
  let broker: ReturnType<typeof kafkaBroker>
  const serviceEnv = () => ({
    ...env, DEV_STATS_BROKER: adapter,
    DEV_STATS_TOPIC_SESSION_ENDED: topic, DEV_STATS_GROUP_SESSION_ENDED: `secure-sessions-${adapter}-${id}`,
    DEV_STATS_TOPIC_VIEW_ENDED: views, DEV_STATS_GROUP_VIEW_ENDED: `secure-views-${adapter}-${id}`,
    DEV_STATS_TOPIC_PROPERTY_OBJECT_UPSERTED: dims, DEV_STATS_GROUP_PROPERTY_OBJECT_UPSERTED: `secure-dims-${adapter}-${id}`,
  })
  const publish = (...records: Parameters<ReturnType<typeof broker.producer>['publish']>[0]) => broker.producer().publish(records)
  const rowsOf = async (sessionId: unknown) => (await sessionRows()).filter((r) => r.SessionId === sessionId)

  beforeAll(async () => {
    const topics = await npm(['run', 'topics'], serviceEnv())
    expect(topics.code, topics.output).toBe(0)
    broker = kafkaBroker(adapter, secureKafkaOptions(env))
    run = service(serviceEnv())
    await run.waitFor('consuming from')
  }, 180_000)

  afterAll(async () => {
    await broker?.close()
    const stopped: Run | undefined = await run?.stop()
    expect(stopped?.code, stopped?.output).toBe(0)
    if (stopped) expectNoSecret(stopped)
  }, 120_000)

  it('Happy + ViewerKind + structured mode: rows with StartedAt = CreatedAt, sentinel tenant, FactId = ce_id', async () => {
    const user = sessionEndedPayload()
    const guest = sessionEndedPayload({ UserId: null })
    const structured = sessionEndedPayload({ UserId: null })
    const record = binaryRecord(topic, user, { key: user.SessionId as string })
    await publish(record, binaryRecord(topic, guest), structuredRecord(topic, structured, { messageId: `structured-${adapter}-${id}` }))
    await eventuallyAsync(async () => (await rowsOf(structured.SessionId)).length === 1, 90_000, 'three rows in ClickHouse')
    expect(await rowsOf(user.SessionId)).toEqual([{
      FactId: messageIdOf(record), SourceEventId: messageIdOf(record), SessionId: user.SessionId, UserId: user.UserId, ViewerKind: 'User',
      TenantId: EMPTY, StartedAt: '2026-11-30 07:15:30', EventTime: '2026-11-30 07:15:30', DurationSeconds: 1800,
    }])
    expect((await rowsOf(guest.SessionId)).map((r) => r.ViewerKind)).toEqual(['Guest'])
    expect((await rowsOf(structured.SessionId)).map((r) => r.FactId)).toEqual([`structured-${adapter}-${id}`])
  })

  it('Idempotent repeat and developer binding, read back through the read side over HTTPS', async () => {
    const p = path()
    const payload = sessionEndedPayload()
    const record = binaryRecord(topic, payload, { key: payload.SessionId as string })
    await publish(record, record, binaryRecord(dims, propertyObjectUpsertedPayload(p)))
    await eventuallyAsync(async () => (await rowsOf(payload.SessionId)).length > 0, 90_000, 'the session row')
    await publish(record, binaryRecord(views, viewEndedPayload(p, payload.SessionId as string)))
    const metrics = async () => getDeveloperSessionMetrics(new ClickHouseReadModel(clickhouse))(
      { developerId: p.DeveloperId as Guid }, { from: Date.parse('2026-11-30T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') },
    )
    await eventuallyAsync(async () => {
      const m = await metrics()
      return E.isRight(m) && m.right.sessions === 1
    }, 90_000, 'the developer-bound session')
    expect(await metrics()).toEqual(E.right(expect.objectContaining({ sessions: 1, totalDurationSeconds: 1800 })))
    expect(new Set((await rowsOf(payload.SessionId)).map((r) => r.FactId)).size).toBe(1)
  })

  it('Boundary values and a missing message id: dead letters with their reason over SASL_SSL; the partition goes on', async () => {
    const bad: [string, unknown][] = [
      ['negative-duration', sessionEndedPayload({ DurationSeconds: -1 })],
      ['default-created-at', sessionEndedPayload({ CreatedAt: '0001-01-01T00:00:00+00:00' })],
      ['created-at-in-future', sessionEndedPayload({ CreatedAt: new Date(Date.now() + 2 * 3_600_000).toISOString() })],
      ['empty-session-id', sessionEndedPayload({ SessionId: EMPTY })],
      ['undecodable', '{"SessionId": '],
    ]
    const good = sessionEndedPayload()
    const records = bad.map(([, p]) => binaryRecord(topic, p, { key: 'same-partition' }))
    await publish(...records, binaryRecord(topic, sessionEndedPayload(), { messageId: null, key: 'same-partition' }), binaryRecord(topic, good, { key: 'same-partition' }))
    await eventuallyAsync(async () => (await rowsOf(good.SessionId)).length === 1, 90_000, 'the good row after the poison')
    const dlq = await readTopic(broker, `${topic}.dlq`, bad.length + 1, 30_000)
    expect(dlq.map((r) => r.headers['dlq-reason']).sort()).toEqual([...bad.map(([reason]) => reason), 'missing-message-id'].sort())
    for (const r of dlq.filter((d) => d.headers['ce_id'] !== undefined)) {
      const original = records.find((o) => o.headers['ce_id'] === r.headers['ce_id'])
      expect(r.value).toEqual(original?.value)
      expect(r.headers).toMatchObject({ ...original?.headers, 'dlq-source-topic': topic })
    }
    // the dead-letter tool reads them over the same secured listener
    const summary = await npm(['run', 'dlq', '--', 'summary', '--topic', topic], { ...env, DEV_STATS_BROKER: adapter })
    expect(summary.code, summary.output).toBe(0)
    for (const [reason] of bad) expect(summary.output).toContain(reason)
    expectNoSecret(summary)
  })
})

// The failure runs: `npm start` as a user runs it, with one setting wrong each.
const WRONG = `wrong-password-${id}`
const kafkaFailures = (other: string): [string, Record<string, string>, RegExp][] => [
  ['wrong password', { DEV_STATS_KAFKA_SASL_PASSWORD_FILE: '', DEV_STATS_KAFKA_SASL_PASSWORD: WRONG },
    /rejected the login: check DEV_STATS_KAFKA_SASL_USERNAME and DEV_STATS_KAFKA_SASL_PASSWORD/],
  ['unknown CA', { DEV_STATS_KAFKA_SSL_CA_FILE: other }, /not signed by a CA this client trusts: check DEV_STATS_KAFKA_SSL_CA_FILE/],
  ['plaintext client, TLS listener', {
    DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'plaintext', DEV_STATS_KAFKA_SASL_MECHANISM: '', DEV_STATS_KAFKA_SASL_USERNAME: '',
    DEV_STATS_KAFKA_SASL_PASSWORD_FILE: '', DEV_STATS_KAFKA_SSL_CA_FILE: '',
  }, /expects TLS: check DEV_STATS_KAFKA_SECURITY_PROTOCOL/],
  ['TLS client, plaintext listener', { DEV_STATS_KAFKA_BROKERS: '127.0.0.1:29092' }, /does not speak TLS: check DEV_STATS_KAFKA_SECURITY_PROTOCOL/],
]

const expectClearFailure = (run: Run, message: RegExp): void => {
  expect(run.code, run.output).toBe(1)
  expect(run.output).toMatch(message)
  // bounded: the clients alone would retry for minutes (kafkajs) or forever (librdkafka)
  expect(run.ms).toBeLessThan(60_000)
  expect(run.output).not.toContain(WRONG)
  expectNoSecret(run)
}

describe.each(KAFKA_ADAPTERS)('Kafka connection failures: npm start with %s exits 1 naming the setting', (adapter) => {
  it.each(kafkaFailures('other-ca'))('%s', async (_, wrong, message) => {
    const otherCa = env.DEV_STATS_KAFKA_SSL_CA_FILE?.replace(/ca\.crt$/, 'other-ca.crt') as string
    const settings = Object.fromEntries(Object.entries(wrong).map(([k, v]) => [k, v === 'other-ca' ? otherCa : v]))
    const run = await npm(['start'], { ...env, DEV_STATS_BROKER: adapter, ...settings })
    expectClearFailure(run, message)
    expect(run.output).toMatch(/cannot connect to Kafka at 127\.0\.0\.1:2909[24]/)
  })
})

describe('ClickHouse connection failures: npm start exits 1 naming the setting', () => {
  const otherCa = () => env.DEV_STATS_CLICKHOUSE_CA_FILE?.replace(/ca\.crt$/, 'other-ca.crt') as string
  it.each([
    ['wrong password', () => ({ DEV_STATS_CLICKHOUSE_PASSWORD_FILE: '', DEV_STATS_CLICKHOUSE_PASSWORD: WRONG }),
      /rejected the login: check DEV_STATS_CLICKHOUSE_USER and DEV_STATS_CLICKHOUSE_PASSWORD/],
    ['unknown CA', () => ({ DEV_STATS_CLICKHOUSE_CA_FILE: otherCa() }), /not signed by a CA this client trusts: check DEV_STATS_CLICKHOUSE_CA_FILE/],
    ['plaintext client, TLS port', () => ({ DEV_STATS_CLICKHOUSE_URL: 'http://127.0.0.1:18443', DEV_STATS_CLICKHOUSE_CA_FILE: '' }),
      /if that port serves HTTPS, use an https:\/\/ DEV_STATS_CLICKHOUSE_URL/],
    ['TLS client, plaintext port', () => ({ DEV_STATS_CLICKHOUSE_URL: 'https://127.0.0.1:28123' }), /does not speak TLS: use http:\/\/ in DEV_STATS_CLICKHOUSE_URL/],
  ])('%s', async (_, wrong, message) => {
    const run = await npm(['start'], { ...env, DEV_STATS_BROKER: 'kafkajs', ...wrong() })
    expectClearFailure(run, message)
    expect(run.output).toMatch(/cannot reach ClickHouse at https?:\/\/127\.0\.0\.1:(18443|28123)/)
  })

  it('npm run migrate with a wrong password: exit 1 naming the setting', async () => {
    const run = await npm(['run', 'migrate'], { ...env, DEV_STATS_CLICKHOUSE_PASSWORD_FILE: '', DEV_STATS_CLICKHOUSE_PASSWORD: WRONG })
    expectClearFailure(run, /migrate failed: .*\n\s+the server rejected the login: check DEV_STATS_CLICKHOUSE_USER and DEV_STATS_CLICKHOUSE_PASSWORD/)
  })
})

describe.each(KAFKA_ADAPTERS)('mutual TLS (listener 29095 requires a client certificate) with %s', (adapter) => {
  const mtlsEnv = (withCert: boolean) => {
    const tls = env.DEV_STATS_KAFKA_SSL_CA_FILE?.replace(/ca\.crt$/, '') as string
    return {
      ...env, DEV_STATS_KAFKA_BROKERS: '127.0.0.1:29095', DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'ssl', DEV_STATS_KAFKA_SASL_MECHANISM: '',
      DEV_STATS_KAFKA_SASL_USERNAME: '', DEV_STATS_KAFKA_SASL_PASSWORD_FILE: '',
      ...(withCert ? { DEV_STATS_KAFKA_SSL_CERT_FILE: `${tls}client.crt`, DEV_STATS_KAFKA_SSL_KEY_FILE: `${tls}client.key` } : {}),
    }
  }

  it('with the client certificate: connects, publishes and reads back', async () => {
    const topic = `secure.mtls.${adapter}.${id}`
    const broker = kafkaBroker(adapter, secureKafkaOptions(mtlsEnv(true)))
    try {
      await broker.checkConnection()
      const topics = await npm(['run', 'topics'], { ...mtlsEnv(true), DEV_STATS_TOPIC_SESSION_ENDED: topic })
      expect(topics.code, topics.output).toBe(0)
      await broker.producer().publish([binaryRecord(topic, sessionEndedPayload())])
      expect(await readTopic(broker, topic, 1, 30_000)).toHaveLength(1)
    } finally {
      await broker.close()
    }
  })

  it('without it: a clear error naming the certificate settings', async () => {
    const run = await npm(['start'], { ...mtlsEnv(false), DEV_STATS_BROKER: adapter })
    expectClearFailure(run, /requires a client certificate it accepts: check DEV_STATS_KAFKA_SSL_CERT_FILE and DEV_STATS_KAFKA_SSL_KEY_FILE/)
  })
})
