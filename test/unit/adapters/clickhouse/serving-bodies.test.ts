import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { dateTimeText } from '../../../../src/adapters/clickhouse/datetime-text.js'
import { servingSessionBody, servingViewBody } from '../../../../src/adapters/clickhouse/serving-bodies.js'
import type { Guid } from '../../../../src/domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../../../src/domain/serving-links.js'

// The serving rows' insert bodies must be byte for byte what JSON.stringify made of their row objects.
const text = fc.oneof(fc.uuid(), fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '"', '\\', '\u2028', '\ud83d'))
const instant = fc.oneof(fc.integer({ min: 1000, max: Date.parse('2105-12-31T23:59:59Z') }), fc.constantFrom(1000, Date.parse('2026-11-30T23:59:59Z')))
const seconds = fc.oneof(fc.nat(), fc.constant(2 ** 32 - 1))

const viewRow = fc.record({
  keyDeveloperId: text, propertyObjectViewId: text, factId: text, developerId: text, sessionId: text,
  isClosed: fc.boolean(), durationSeconds: seconds, eventTime: instant, ingestionTime: instant,
}) as fc.Arbitrary<ServingViewRow>
const sessionRow = fc.record({
  keyDeveloperId: text, sessionId: text, factId: text, durationSeconds: seconds,
  viewerKind: fc.constantFrom('Guest', 'User'), eventTime: instant, ingestionTime: instant,
}) as fc.Arbitrary<ServingSessionRow>

const lines = (objects: readonly object[]) => objects.map((o) => `${JSON.stringify(o)}\n`).join('')
const utf8 = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8')

describe('serving rows as JSONEachRow bytes', () => {
  it('developer_view_facts: the same bytes as JSON.stringify of each row object', () => {
    fc.assert(
      fc.property(fc.array(viewRow, { maxLength: 30 }), (rows) => {
        const objects = rows.map((r) => ({
          KeyDeveloperId: r.keyDeveloperId, PropertyObjectViewId: r.propertyObjectViewId, FactId: r.factId, DeveloperId: r.developerId,
          SessionId: r.sessionId, IsClosed: r.isClosed ? 1 : 0, DurationSeconds: r.durationSeconds,
          EventTime: dateTimeText(r.eventTime), IngestionTime: dateTimeText(r.ingestionTime),
        }))
        expect(utf8(servingViewBody(rows))).toBe(lines(objects))
      }),
    )
  })

  it('developer_session_facts: the same bytes as JSON.stringify of each row object', () => {
    fc.assert(
      fc.property(fc.array(sessionRow, { maxLength: 30 }), (rows) => {
        const objects = rows.map((r) => ({
          KeyDeveloperId: r.keyDeveloperId as Guid, SessionId: r.sessionId, FactId: r.factId, DurationSeconds: r.durationSeconds,
          ViewerKind: r.viewerKind, EventTime: dateTimeText(r.eventTime), IngestionTime: dateTimeText(r.ingestionTime),
        }))
        expect(utf8(servingSessionBody(rows))).toBe(lines(objects))
      }),
    )
  })
})
