import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BasicTracerProvider, InMemorySpanExporter } from '@opentelemetry/sdk-trace-base'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { unknownViewSourceWarning } from '../../../src/application/handlers/handler-settings.js'
import { binaryRecord, EMPTY, structuredRecord } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'
import { registerSdk, unregisterSdk } from '../../support/otel-sdk.js'

// Issue 38: payload text never reaches an output of ours but the dead-letter copy itself (spec §9:
// lead events carry names and phone numbers). Poison whose every value is a marker goes into every
// consumer; the marker must be in the dead letters' values and nowhere in a log line, a span or a
// dlq-detail.
const MARKER = 'Zq7-Ivan-Petrov-+79001234567'
const decoder = new TextDecoder()

/** Every field name a consumer of ours reads, each holding the marker (or an empty id, so that a rule refuses it). */
const FIELDS = [
  'Id', 'Name', 'UpsertedAt', 'DeveloperId', 'ProjectId', 'BuildingId', 'LayoutGroupId', 'LayoutId', 'ParentId', 'Version',
  'SessionId', 'AnonymousId', 'UserId', 'CreatedAt', 'LastActivityAt', 'DurationSeconds', 'PropertyObjectViewId',
  'PropertyObjectId', 'ViewSource', 'ViewedAt', 'ActionType', 'OccurredAt', 'FavoriteId', 'SelectionItemId', 'BookingId',
  'DealId', 'LeadId', 'OriginPropertyObjectId', 'TenantId', 'ClientId', 'ClientName', 'Phone',
]
// ActionType names the one action action-tracked takes (any other is skipped, not poison)
const marked = { ...Object.fromEntries(FIELDS.map((f) => [f, MARKER])), ActionType: 'ViewPropertyObject' }
// decodable as to types where a rule refuses it: every id empty, every text and time the marker
const emptyIds = { ...Object.fromEntries(FIELDS.map((f) => [f, /Id$/.test(f) ? EMPTY : f === 'DurationSeconds' || f === 'Version' ? -1 : MARKER])), ActionType: 'ViewPropertyObject' }

const handlers = CONSUMERS.map((c) => c.handler(c.topic, c.groupId))

describe('no payload text in logs, spans or dead-letter details (all 16 consumers)', () => {
  let sdk: { exporter: InMemorySpanExporter; provider: BasicTracerProvider }
  beforeAll(() => void (sdk = registerSdk()))
  afterAll(() => unregisterSdk(sdk.provider))

  it('not JSON, wrong types, refused by a rule, in binary and structured mode: each dead-lettered with its value, the marker nowhere else', async () => {
    const h = new Harness(handlers)
    await h.start()
    for (const handler of handlers) {
      h.publish(
        binaryRecord(handler.topic, `${MARKER} is not JSON`),
        binaryRecord(handler.topic, marked),
        binaryRecord(handler.topic, emptyIds),
        structuredRecord(handler.topic, marked),
        binaryRecord(handler.topic, { ...marked, ...emptyIds, ClientName: MARKER }, { headers: { ce_time: MARKER, ce_subject: MARKER } }),
      )
    }
    await waitUntil(() => handlers.every((x) => h.caughtUp(x)), 20_000, 'every consumer caught up')
    await sdk.provider.forceFlush()

    expect(handlers.length).toBe(16)
    for (const handler of handlers) {
      const dlq = h.dlq(handler)
      expect(dlq.length, handler.name).toBe(5)
      expect(dlq.every((r) => decoder.decode(r.value ?? new Uint8Array()).includes(MARKER)), handler.name).toBe(true)
      for (const r of dlq) expect(r.headers['dlq-detail'] ?? '', `${handler.name}: ${r.headers['dlq-detail']}`).not.toContain(MARKER)
    }
    const logText = h.logger.lines.map((l) => `${l.message} ${JSON.stringify(l.fields)}`)
    expect(logText.filter((l) => l.includes(MARKER))).toEqual([])
    expect(logText.some((l) => l.includes('skipped-poison'))).toBe(true)
    const spans = sdk.exporter.getFinishedSpans()
    expect(spans.length).toBeGreaterThan(0)
    const spanText = spans.map((s) => JSON.stringify({ name: s.name, attributes: s.attributes, events: s.events, links: s.links, status: s.status }))
    expect(spanText.filter((s) => s.includes(MARKER))).toEqual([])
    await h.stopAll()
  })

  it("a stored record's warnings name the rule, not the producer's text", () => {
    expect(unknownViewSourceWarning(MARKER)).not.toContain(MARKER)
  })
})
