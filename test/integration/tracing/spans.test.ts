import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import type { BasicTracerProvider, InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, guid, sessionEndedPayload, structuredRecord } from '../../support/events.js'
import { KAFKA_ADAPTERS } from '../../support/kafka.js'
import { KafkaHarness, eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { attributeNamesOf, newTraceparent, parentOf, registerSdk, unregisterSdk } from '../../support/otel-sdk.js'
import { offConvention } from '../../support/span-conventions.js'

// Issue 22 on the real servers: the OpenTelemetry SDK registered as a host registers it (provider,
// span processor, in-memory exporter, no context manager), records with known traceparents through
// the real Kafka broker with each adapter, rows into the real ClickHouse 18.16 server. Its
// session_facts.SourceEventId is narrowed to UUID so that the server refuses one record's row
// (code 27): a real failed insert, retried in halves, and a store-rejected dead letter.
const database = `i22_tracing_${randomUUID().slice(0, 8)}`
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database })

afterAll(async () => {
  await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
  await session.close()
})

describe.each(KAFKA_ADAPTERS)('spans of a batch on Kafka (%s) and ClickHouse', (adapter) => {
  let sdk: { exporter: InMemorySpanExporter; provider: BasicTracerProvider }
  let h: KafkaHarness | undefined
  const spans = (): ReadableSpan[] => sdk.exporter.getFinishedSpans()

  beforeAll(async () => {
    sdk = registerSdk()
    await resetDatabase(session)
    await session.command(sql`ALTER TABLE ${ident(database)}.session_facts MODIFY COLUMN SourceEventId UUID`)
  })
  afterEach(async () => h?.stopAll())
  afterAll(async () => unregisterSdk(sdk.provider))

  it('process spans link to every producer\'s trace; inserts and the dead-letter publish are their children; failures by code, no values', async () => {
    const sessions = isolated(sessionEndedHandler, 'tracing')
    h = new KafkaHarness(adapter, [sessions])
    h.sink = new ClickHouseFactStore(session)
    const [a, b, c, poisoned] = [newTraceparent(), newTraceparent(), newTraceparent(), newTraceparent()]
    // structured mode with the trace context in a Kafka header (OpenTelemetry's Kafka instrumentations), alone and beside the body's
    const [d, e, eHeader] = [newTraceparent(), newTraceparent(), newTraceparent()]
    const ids = { a: guid(), b: guid(), c: guid(), d: guid(), e: guid() }
    const refusedPayload = sessionEndedPayload()
    const key = 'one-partition'
    await h.start()
    await h.publish(
      binaryRecord(sessions.topic, sessionEndedPayload(), { key, messageId: ids.a, headers: { traceparent: a.traceparent } }),
      binaryRecord(sessions.topic, sessionEndedPayload(), { key, messageId: ids.b, headers: { ce_traceparent: b.traceparent } }),
      structuredRecord(sessions.topic, sessionEndedPayload(), { key, messageId: ids.c, attributes: { traceparent: c.traceparent } }),
      structuredRecord(sessions.topic, sessionEndedPayload(), { key, messageId: ids.d, headers: { traceparent: d.traceparent } }),
      structuredRecord(sessions.topic, sessionEndedPayload(), { key, messageId: ids.e, attributes: { traceparent: e.traceparent }, headers: { traceparent: eHeader.traceparent } }),
      binaryRecord(sessions.topic, '{"broken json', { key, headers: { traceparent: poisoned.traceparent } }),
      binaryRecord(sessions.topic, refusedPayload, { key, messageId: 'not-a-uuid' }),
    )
    await eventuallyAsync(() => h?.caughtUp(sessions) ?? false, 60_000, 'all seven committed')
    expect((await h.dlq(sessions, 2)).map((r) => r.headers['dlq-reason']).sort()).toEqual(['store-rejected', 'undecodable'])

    const processed = spans().filter((s) => s.name === `process ${sessions.topic}`)
    expect(processed.length).toBeGreaterThanOrEqual(1)
    for (const p of processed) {
      expect(p.kind).toBe(SpanKind.CONSUMER)
      expect(p.parentSpanContext).toBeUndefined()
      expect(p.attributes).toMatchObject({
        'messaging.system': 'kafka', 'messaging.operation.name': 'process', 'messaging.operation.type': 'process',
        'messaging.destination.name': sessions.topic, 'messaging.consumer.group.name': sessions.groupId,
      })
    }
    expect(processed.reduce((n, p) => n + Number(p.attributes['messaging.batch.message_count']), 0)).toBe(7)
    const links = processed.flatMap((p) => p.links)
    expect(links.map((l) => [l.context.traceId, l.context.spanId, l.attributes?.['messaging.message.id']]).sort()).toEqual(
      [[a.traceId, a.spanId, ids.a], [b.traceId, b.spanId, ids.b], [c.traceId, c.spanId, ids.c], [d.traceId, d.spanId, ids.d], [e.traceId, e.spanId, ids.e]].sort(),
    )
    const byId = new Map(processed.map((p) => [p.spanContext().spanId, p]))

    const inserts = spans().filter((s) => s.name === 'INSERT session_facts')
    for (const s of inserts) {
      expect(s.kind).toBe(SpanKind.CLIENT)
      expect(byId.has(parentOf(s) as string)).toBe(true)
      expect(s.spanContext().traceId).toBe(byId.get(parentOf(s) as string)?.spanContext().traceId)
      expect(s.attributes).toMatchObject({ 'db.system.name': 'clickhouse', 'db.namespace': database, 'db.collection.name': 'session_facts', 'db.operation.name': 'INSERT', 'server.port': 18123 })
    }
    const ok = inserts.filter((s) => s.status.code !== SpanStatusCode.ERROR)
    const refused = inserts.filter((s) => s.status.code === SpanStatusCode.ERROR)
    expect(ok.reduce((n, s) => n + Number(s.attributes['dev_stats.db.row_count']), 0)).toBe(5)
    expect(refused.length).toBeGreaterThanOrEqual(1)
    for (const s of refused) {
      expect([s.status.message, s.attributes['error.type'], s.attributes['db.response.status_code']]).toEqual(['CLICKHOUSE_27', 'CLICKHOUSE_27', '27'])
      expect(s.events.map((e) => [e.name, e.attributes])).toEqual([['exception', { 'exception.type': 'CLICKHOUSE_27' }]])
    }

    const reasons = processed.flatMap((p) => p.events.map((e) => e.attributes?.['exception.type'])).sort()
    expect(reasons).toEqual(['store-rejected', 'undecodable'])
    for (const p of processed.filter((p) => p.events.length > 0)) expect(p.status.code).toBe(SpanStatusCode.ERROR)

    const sends = spans().filter((s) => s.name.startsWith('send '))
    expect(sends.map((s) => s.name)).toEqual(sends.map(() => `send ${h?.topicsOf(sessions).deadLetter}`))
    for (const s of sends) expect(byId.has(parentOf(s) as string)).toBe(true)
    expect(sends.flatMap((s) => s.links.map((l) => l.context.traceId))).toEqual([poisoned.traceId])
    expect(sends.reduce((n, s) => n + Number(s.attributes['messaging.batch.message_count']), 0)).toBe(2)

    // No payload value anywhere: not the refused row's values (which the server's message quotes), not the poison's text.
    const everything = JSON.stringify(spans().map((s) => [s.name, s.attributes, s.events, s.status, s.links]))
    for (const value of [refusedPayload.SessionId, refusedPayload.AnonymousId, 'not-a-uuid', 'broken json']) expect(everything).not.toContain(value)
    expect(offConvention(attributeNamesOf(spans()))).toEqual([])
  })
})
