import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { decideActionTracked } from '../../../src/domain/action-tracked.js'
import { checkColumns, COLUMN_LIMITS, date, dateTime, uint32, uint64 } from '../../../src/domain/column-limits.js'
import { funnelEventCandidate } from '../../../src/domain/funnel-event.js'
import { leadCreatedDecision } from '../../../src/domain/lead-created.js'
import { poison } from '../../../src/domain/poison.js'
import { propertyObjectDimRow } from '../../../src/domain/property-object-dim.js'
import { sessionEndedFact } from '../../../src/domain/session-ended.js'
import { decideViewEnded } from '../../../src/domain/view-fact.js'
import { funnelEventPayload, guid, leadCreatedPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload, viewEndedPayload } from '../../support/events.js'

const now = Date.parse('2026-11-30T12:00:00Z')
const outOfRange = (detail: string) => E.left(poison('out-of-range', detail))
const p = path()

describe('the column limits table', () => {
  it.each([
    [dateTime('T', COLUMN_LIMITS.DateTime.min), true],
    [dateTime('T', COLUMN_LIMITS.DateTime.min - 1), false],
    [dateTime('T', Date.parse('2105-12-31T23:59:59.999Z')), true],
    [dateTime('T', Date.parse('2106-01-01T00:00:00Z')), false],
    [date('D', Date.parse('1970-01-02T00:00:00Z')), true],
    [date('D', Date.parse('1970-01-01T23:59:59Z')), false],
    [date('D', Date.parse('2106-01-01T00:00:00Z')), false],
    [uint32('N', 0), true],
    [uint32('N', -1), false],
    [uint32('N', 2 ** 32 - 1), true],
    [uint32('N', 2 ** 32), false],
    [uint32('N', 1.5), false],
    [uint32('N', null), true],
    [uint64('V', Number.MAX_SAFE_INTEGER), true],
    [uint64('V', Number.MAX_SAFE_INTEGER + 1), false],
    [uint64('V', -1), false],
    [{ column: 'U', type: 'UUID', value: guid() } as const, true],
    [{ column: 'U', type: 'UUID', value: 'not-a-uuid' } as const, false],
  ])('%o in range: %s', (value, ok) => {
    expect(E.isRight(checkColumns([value]))).toBe(ok)
  })

  it('names the first column out of range and its type', () => {
    expect(checkColumns([uint32('A', 1), dateTime('B', Date.parse('1900-01-01T00:00:00Z')), uint32('C', -1)])).toEqual(
      outOfRange('B is outside the range of ClickHouse DateTime'),
    )
  })
})

describe('every topic checks its values against their columns (out-of-range, never wrapped)', () => {
  it('session-ended: LastActivityAt in 1900 and CreatedAt after 2105 are out of range', () => {
    const old = sessionEndedFact({ messageId: 'm' }, sessionEndedPayload({ LastActivityAt: '1900-01-01T00:00:00Z' }), now)
    expect(old).toEqual(outOfRange('LastActivityAt is outside the range of ClickHouse DateTime'))
    const early = sessionEndedFact({ messageId: 'm' }, sessionEndedPayload({ CreatedAt: '1969-12-31T23:59:59Z' }), now)
    expect(early).toEqual(outOfRange('StartedAt is outside the range of ClickHouse DateTime'))
  })

  it('view-ended: DurationSeconds 2^32 is out of range; 2^32 - 1 is stored as is', () => {
    const big = decideViewEnded(viewEndedPayload(p, guid(), { DurationSeconds: 2 ** 32 }), now)
    expect(big).toEqual(outOfRange('DurationSeconds is outside the range of ClickHouse UInt32'))
    const max = decideViewEnded(viewEndedPayload(p, guid(), { DurationSeconds: 2 ** 32 - 1 }), now)
    expect(E.isRight(max) && max.right.payload.DurationSeconds).toBe(2 ** 32 - 1)
  })

  it('view-ended: a pre-1970 ViewedAt is out of range, a default one is default-created-at, a future one created-at-in-future', () => {
    expect(decideViewEnded(viewEndedPayload(p, guid(), { ViewedAt: '1960-05-01T00:00:00Z' }), now)).toEqual(
      outOfRange('ViewedAt is outside the range of ClickHouse DateTime'),
    )
    expect(decideViewEnded(viewEndedPayload(p, guid(), { ViewedAt: '0001-01-01T00:00:00+00:00' }), now)).toEqual(
      E.left(poison('default-created-at', 'ViewedAt is missing or default(DateTimeOffset)')),
    )
    expect(decideViewEnded(viewEndedPayload(p, guid(), { ViewedAt: '2026-11-30T13:00:01Z' }), now)).toEqual(
      E.left(poison('created-at-in-future', 'ViewedAt is more than 1 h ahead of now')),
    )
    expect(decideViewEnded(viewEndedPayload(p, guid(), { LastActivityAt: '2200-01-01T00:00:00Z' }), now)).toEqual(
      outOfRange('LastActivityAt is outside the range of ClickHouse DateTime'),
    )
  })

  it('action-tracked: ViewedAt default, in the future and before 1970', () => {
    expect(decideActionTracked(viewActionPayload(p, { ViewedAt: '0001-01-01T00:00:00Z' }), now)).toEqual(
      E.left(poison('default-created-at', 'ViewedAt is missing or default(DateTimeOffset)')),
    )
    expect(decideActionTracked(viewActionPayload(p, { ViewedAt: '2027-01-01T00:00:00Z' }), now)).toEqual(
      E.left(poison('created-at-in-future', 'ViewedAt is more than 1 h ahead of now')),
    )
    expect(decideActionTracked(viewActionPayload(p, { ViewedAt: '1969-07-20T20:17:00Z' }), now)).toEqual(
      outOfRange('ViewedAt is outside the range of ClickHouse DateTime'),
    )
  })

  it('funnel events: OccurredAt default, in the future and before 1970', () => {
    const decide = funnelEventCandidate('DealId')
    expect(decide(funnelEventPayload('DealId', p.PropertyObjectId, { OccurredAt: '0001-01-01T00:00:00Z' }), now)).toEqual(
      E.left(poison('default-created-at', 'OccurredAt is missing or default(DateTimeOffset)')),
    )
    expect(decide(funnelEventPayload('DealId', p.PropertyObjectId, { OccurredAt: '2026-11-30T13:00:01Z' }), now)).toEqual(
      E.left(poison('created-at-in-future', 'OccurredAt is more than 1 h ahead of now')),
    )
    expect(decide(funnelEventPayload('DealId', p.PropertyObjectId, { OccurredAt: '1970-01-01T12:00:00Z' }), now)).toEqual(
      outOfRange('EventDate is outside the range of ClickHouse Date'),
    )
  })

  it('lead-created: CreatedAt in the future or before 1970', () => {
    expect(leadCreatedDecision(leadCreatedPayload({ CreatedAt: '2026-12-01T00:00:00Z' }), now)).toEqual(
      E.left(poison('created-at-in-future', 'CreatedAt is more than 1 h ahead of now')),
    )
    expect(leadCreatedDecision(leadCreatedPayload({ CreatedAt: '1900-01-01T00:00:00Z' }), now)).toEqual(
      outOfRange('EventDate is outside the range of ClickHouse Date'),
    )
  })

  it('property-object-upserted: a default UpsertedAt is out of range, not a negative Version', () => {
    expect(propertyObjectDimRow(propertyObjectUpsertedPayload(p, { UpsertedAt: '0001-01-01T00:00:00+00:00' }))).toEqual(
      outOfRange('UpsertedAt is outside the range of ClickHouse DateTime'),
    )
    const ok = propertyObjectDimRow(propertyObjectUpsertedPayload(p, { UpsertedAt: '2105-12-31T23:59:59.999Z' }))
    expect(E.isRight(ok) && ok.right.version).toBe(Date.parse('2105-12-31T23:59:59.999Z') * 1000)
  })
})
