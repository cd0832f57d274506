import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { SpanKind, SpanStatusCode } from '@opentelemetry/api'
import type { BasicTracerProvider, InMemorySpanExporter, ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { OtelTracer } from '../../../../src/adapters/observability/otel-tracer.js'
import { defaultTopics } from '../../../../src/application/engine/engine-config.js'
import { sessionEndedHandler } from '../../../../src/application/handlers/session-ended.handler.js'
import type { BrokerRecord } from '../../../../src/application/ports/broker.port.js'
import { StoreError } from '../../../../src/application/ports/store-error.js'
import type { BatchSpan, StoreTrace } from '../../../../src/application/ports/tracer.port.js'
import { binaryRecord, sessionEndedPayload, structuredRecord } from '../../../support/events.js'
import { Harness, waitUntil } from '../../../support/harness.js'
import { attributeNamesOf, newTraceparent, parentOf, registerSdk, unregisterSdk } from '../../../support/otel-sdk.js'
import { offConvention } from '../../../support/span-conventions.js'

// The spans under the real OpenTelemetry SDK (sdk-trace-base, in-memory exporter), registered as a
// host registers it. The same on the real Kafka broker and ClickHouse server: test/integration/tracing.
const record = (offset: number, headers: Record<string, string> = {}): BrokerRecord => ({
  topic: 'dev-stats.session-ended', partition: 2, offset: String(offset), key: null, value: null, headers,
})

describe('without an SDK', () => {
  it('tracing is off: nothing is asked to build a span', () => {
    expect(new OtelTracer().enabled).toBe(false)
  })
})

describe('with an SDK registered', () => {
  let sdk: { exporter: InMemorySpanExporter; provider: BasicTracerProvider }
  let h: Harness | undefined
  const spans = (): ReadableSpan[] => sdk.exporter.getFinishedSpans()
  beforeAll(() => (sdk = registerSdk()))
  afterAll(async () => unregisterSdk(sdk.provider))
  afterEach(async () => {
    await h?.stopAll()
    h = undefined
    sdk.exporter.reset()
  })

  it('is enabled', () => {
    expect(new OtelTracer().enabled).toBe(true)
  })

  it('a batch: process span linked to each record\'s context, with its id, partition and offset on the link', () => {
    const a = newTraceparent()
    const b = newTraceparent()
    const records = [record(7), record(8), record(9)]
    const span = new OtelTracer().batch({
      groupId: 'g', records, linked: [records[0] as BrokerRecord, records[2] as BrokerRecord],
      contexts: [{ messageId: 'm7', traceparent: a.traceparent, tracestate: 'vendor=x' }, { messageId: 'm9', traceparent: b.traceparent }],
      openedAt: performance.now() - 50,
    })
    span.end()
    const [s] = spans()
    expect(s?.name).toBe('process dev-stats.session-ended')
    expect(s?.kind).toBe(SpanKind.CONSUMER)
    expect(s?.parentSpanContext).toBeUndefined()
    expect(s?.attributes).toEqual({
      'messaging.system': 'kafka',
      'messaging.operation.name': 'process',
      'messaging.operation.type': 'process',
      'messaging.consumer.group.name': 'g',
      'messaging.destination.name': 'dev-stats.session-ended',
      'messaging.destination.partition.id': '2',
      'messaging.batch.message_count': 3,
      'dev_stats.kafka.offset_ranges': ['dev-stats.session-ended/2:7-9'],
    })
    expect(s?.links.map((l) => [l.context.traceId, l.context.spanId, l.context.isRemote, l.attributes])).toEqual([
      [a.traceId, a.spanId, true, { 'messaging.message.id': 'm7', 'messaging.destination.name': 'dev-stats.session-ended', 'messaging.destination.partition.id': '2', 'messaging.kafka.offset': 7 }],
      [b.traceId, b.spanId, true, { 'messaging.message.id': 'm9', 'messaging.destination.name': 'dev-stats.session-ended', 'messaging.destination.partition.id': '2', 'messaging.kafka.offset': 9 }],
    ])
    expect(s?.links[0]?.context.traceState?.get('vendor')).toBe('x')
    // The span starts when the batch's first record was taken, not when it is written.
    expect((s?.duration[0] ?? 0) * 1e3 + (s?.duration[1] ?? 0) / 1e6).toBeGreaterThanOrEqual(45)
  })

  it('a batch over several partitions names no single partition; a malformed traceparent gives no link', () => {
    const records = [record(1), { ...record(5), partition: 0 }, { ...record(3), topic: 'dev-stats.session-ended.retry.g' }]
    new OtelTracer().batch({ groupId: 'g', records, linked: [records[0] as BrokerRecord], contexts: [{ messageId: 'x', traceparent: '00-zz-nope-01' }], openedAt: undefined }).end()
    const [s] = spans()
    expect(s?.name).toBe('process')
    expect(s?.attributes['messaging.destination.name']).toBeUndefined()
    expect(s?.attributes['messaging.destination.partition.id']).toBeUndefined()
    expect(s?.attributes['dev_stats.kafka.offset_ranges']).toEqual(['dev-stats.session-ended/2:1-1', 'dev-stats.session-ended/0:5-5', 'dev-stats.session-ended.retry.g/2:3-3'])
    expect(s?.links).toEqual([])
  })

  it('store calls and publishes are children; a failure is recorded by its code, never with the message\'s values', async () => {
    const batch = new OtelTracer().batch({ groupId: 'g', records: [record(1), record(2)], linked: [], contexts: [], openedAt: undefined })
    const call = { system: 'clickhouse', operation: 'INSERT', namespace: 'pin_dev_stats', collection: 'session_facts', rows: 2, queryText: 'INSERT INTO pin_dev_stats.session_facts FORMAT JSONEachRow', serverAddress: '127.0.0.1', serverPort: 18123 }
    const refused = new StoreError("ClickHouse error 27: Code: 27, Cannot parse input: expected '\"' before: 'secret@example.com'", false, 'CLICKHOUSE_27')
    await expect(batch.store.call(call, () => Promise.reject(refused))).rejects.toBe(refused)
    await batch.store.call(call, () => Promise.resolve())
    const dlq = newTraceparent()
    await batch.publish([{ topic: 'dlq', key: null, value: null, headers: { ce_id: 'm1', traceparent: dlq.traceparent } }, { topic: 'dlq', key: null, value: null, headers: {} }], () => Promise.resolve())
    batch.deadLettered(new Map([['store-rejected', 1], ['undecodable', 2]]))
    batch.end()
    const [failed, inserted, sent, processed] = spans()
    for (const child of [failed, inserted, sent]) expect(parentOf(child as ReadableSpan)).toBe(processed?.spanContext().spanId)
    for (const child of [failed, inserted, sent]) expect(child?.spanContext().traceId).toBe(processed?.spanContext().traceId)
    expect([failed?.name, failed?.kind, failed?.status]).toEqual(['INSERT session_facts', SpanKind.CLIENT, { code: SpanStatusCode.ERROR, message: 'CLICKHOUSE_27' }])
    expect(failed?.attributes).toEqual({
      'db.system.name': 'clickhouse', 'db.operation.name': 'INSERT', 'db.collection.name': 'session_facts', 'db.query.summary': 'INSERT session_facts',
      'db.namespace': 'pin_dev_stats', 'db.query.text': 'INSERT INTO pin_dev_stats.session_facts FORMAT JSONEachRow', 'server.address': '127.0.0.1', 'server.port': 18123,
      'dev_stats.db.row_count': 2, 'error.type': 'CLICKHOUSE_27', 'db.response.status_code': '27',
    })
    expect(failed?.events.map((e) => [e.name, e.attributes])).toEqual([['exception', { 'exception.type': 'CLICKHOUSE_27' }]])
    expect(inserted?.status.code).toBe(SpanStatusCode.UNSET)
    expect(inserted?.attributes['error.type']).toBeUndefined()
    expect([sent?.name, sent?.kind, sent?.attributes['messaging.batch.message_count'], sent?.attributes['messaging.operation.type']]).toEqual(['send dlq', SpanKind.CLIENT, 2, 'send'])
    expect(sent?.links.map((l) => [l.context.traceId, l.attributes])).toEqual([[dlq.traceId, { 'messaging.message.id': 'm1' }]])
    expect(processed?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'dead-lettered: store-rejected, undecodable' })
    expect(processed?.events.map((e) => e.attributes)).toEqual([
      { 'exception.type': 'store-rejected', 'exception.message': '1 record(s) dead-lettered: store-rejected', 'dev_stats.dead_letter.count': 1 },
      { 'exception.type': 'undecodable', 'exception.message': '2 record(s) dead-lettered: undecodable', 'dev_stats.dead_letter.count': 2 },
    ])
    expect(JSON.stringify(spans().map((s) => [s.attributes, s.events, s.status, s.links]))).not.toContain('secret')
    expect(offConvention(attributeNamesOf(spans()))).toEqual([])
  })

  it('the engine: one process span per batch linked to binary, ce_ and structured-mode contexts; inserts are its children; a poison\'s reason is on it', async () => {
    const sessions = sessionEndedHandler()
    h = new Harness([sessions])
    // A store that reports its insert as a database call, as the ClickHouse store does.
    const store = h.store
    h.sink = { append: (rows, at, trace?: StoreTrace) => (trace ?? { call: (_c, w) => w() }).call({ system: 'clickhouse', operation: 'INSERT', collection: 'session_facts', rows: rows.length }, () => store.append(rows, at)) }
    const [a, b, c] = [newTraceparent(), newTraceparent(), newTraceparent()]
    const key = 'one-partition'
    h.publish(
      binaryRecord(sessions.topic, sessionEndedPayload(), { key, headers: { traceparent: a.traceparent } }),
      binaryRecord(sessions.topic, sessionEndedPayload(), { key, headers: { ce_traceparent: b.traceparent } }),
      structuredRecord(sessions.topic, sessionEndedPayload(), { key, attributes: { traceparent: c.traceparent } }),
      binaryRecord(sessions.topic, 'not json', { key }),
      binaryRecord(sessions.topic, sessionEndedPayload(), { key }),
    )
    await h.start()
    await waitUntil(() => h?.caughtUp(sessions) ?? false, 10_000, 'caught up')
    await waitUntil(() => spans().some((s) => s.name.startsWith('process')), 5_000, 'process span')
    const processed = spans().filter((s) => s.name.startsWith('process'))
    expect(processed).toHaveLength(1)
    const [p] = processed
    expect(p?.name).toBe(`process ${sessions.topic}`)
    expect(p?.attributes['messaging.batch.message_count']).toBe(5)
    expect(p?.attributes['messaging.consumer.group.name']).toBe(sessions.groupId)
    expect(p?.links.map((l) => l.context.traceId)).toEqual([a.traceId, b.traceId, c.traceId])
    expect(p?.events.map((e) => e.attributes?.['exception.type'])).toEqual(['undecodable'])
    const inserts = spans().filter((s) => s.name === 'INSERT session_facts')
    expect(inserts.map((s) => [parentOf(s), s.attributes['dev_stats.db.row_count']])).toEqual([[p?.spanContext().spanId, 4]])
    const sends = spans().filter((s) => s.name === `send ${defaultTopics(sessions.topic, sessions.groupId).deadLetter}`)
    expect(sends.map((s) => [parentOf(s), s.attributes['messaging.batch.message_count']])).toEqual([[p?.spanContext().spanId, 1]])
    expect(offConvention(attributeNamesOf(spans()))).toEqual([])
  })
})

describe('tracing off', () => {
  it('the engine never asks for a span when the tracer is disabled', async () => {
    const sessions = sessionEndedHandler()
    const h = new Harness([sessions])
    const asked: string[] = []
    const tracer = { enabled: false, batch: (): BatchSpan => { asked.push('batch'); throw new Error('no span may be built') } }
    h.tracer = tracer
    h.publish(...Array.from({ length: 20 }, () => binaryRecord(sessions.topic, sessionEndedPayload(), { headers: { traceparent: newTraceparent().traceparent } })))
    await h.start()
    await waitUntil(() => h.caughtUp(sessions), 10_000, 'caught up')
    await h.stopAll()
    expect(asked).toEqual([])
    expect(h.tables.of('session_facts')).toHaveLength(20)
  })
})
