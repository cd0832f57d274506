import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from '../../../src/domain/decode-with.js'
import { decideActionTracked, decodeViewAction, ViewActionPayload } from '../../../src/domain/action-tracked.js'
import { decodeViewEnded, ViewEndedPayload } from '../../../src/domain/view-fact.js'
import { classifyViewSource } from '../../../src/domain/view-source.js'
import { dateField, dropSome, expectSameDecoding, guidField, int32Edges, isoDate, other, uuid, validDate, withExtraFields } from '../../support/wire-arbitraries.js'

// The hand-written fast paths in front of the action-tracked and view-ended codecs (the two
// busiest topics) must change nothing but speed: the same Right value, or the same poison reason
// and detail, as the plain io-ts codecs.
const VIEW_ENDED_FIELDS = ['PropertyObjectViewId', 'PropertyObjectId', 'SessionId', 'AnonymousId', 'ViewedAt', 'LastActivityAt', 'DurationSeconds', 'UserId', 'ViewerRole', 'ViewSource'] as const
const VIEW_ACTION_FIELDS = ['PropertyObjectViewId', 'PropertyObjectId', 'ViewedAt', 'SessionId', 'AnonymousId', 'UserId', 'ViewerRole', 'ViewSource'] as const

const duration = fc.oneof(int32Edges, fc.integer({ min: -100, max: 1_000_000 }), fc.constant(Number.NaN), fc.constant(Infinity), fc.string({ maxLength: 4 }), other)
const viewSource = fc.oneof(fc.constantFrom('Catalog', 'Search', 'Map', 'catalog', ''), other)

const anyViewEnded = withExtraFields(
  fc.record(
    { PropertyObjectViewId: guidField, PropertyObjectId: guidField, SessionId: guidField, AnonymousId: guidField, ViewedAt: dateField, LastActivityAt: dateField, DurationSeconds: duration, UserId: guidField, ViewerRole: other, ViewSource: viewSource },
    { requiredKeys: [] },
  ),
)
const nearlyValidViewEnded = dropSome(
  fc.record({
    PropertyObjectViewId: uuid,
    PropertyObjectId: uuid,
    SessionId: uuid,
    AnonymousId: uuid,
    ViewedAt: fc.oneof(isoDate, validDate),
    LastActivityAt: fc.oneof(isoDate, validDate),
    DurationSeconds: fc.oneof(int32Edges, fc.integer({ min: -10, max: 86_400 })),
    UserId: fc.oneof(uuid, fc.constant(null)),
    ViewerRole: fc.oneof(fc.constantFrom('Agent', 'Investor', 'Buyer'), other),
    ViewSource: viewSource,
  }),
  ['SessionId', 'AnonymousId', 'LastActivityAt', 'UserId', 'ViewerRole', 'ViewSource'],
)

const anyViewAction = withExtraFields(
  fc.record(
    { ActionType: fc.oneof(fc.constant('ViewPropertyObject'), other), PropertyObjectViewId: guidField, PropertyObjectId: guidField, ViewedAt: dateField, SessionId: guidField, AnonymousId: guidField, UserId: guidField, ViewerRole: other, ViewSource: viewSource },
    { requiredKeys: [] },
  ),
)
const nearlyValidViewAction = dropSome(
  fc.record({
    ActionType: fc.constantFrom('ViewPropertyObject', 'AddToFavorites'),
    PropertyObjectViewId: uuid,
    PropertyObjectId: uuid,
    ViewedAt: fc.oneof(isoDate, validDate),
    SessionId: fc.oneof(uuid, fc.constant(null)),
    AnonymousId: fc.oneof(uuid, fc.constant(null)),
    UserId: fc.oneof(uuid, fc.constant(null)),
    ViewerRole: fc.oneof(fc.constantFrom('Agent', 'Buyer'), other),
    ViewSource: viewSource,
  }),
  ['ActionType', 'SessionId', 'AnonymousId', 'UserId', 'ViewerRole', 'ViewSource'],
)

const plainViewEnded = decodeWith(ViewEndedPayload)
const plainViewAction = decodeWith(ViewActionPayload)
const NOW = Date.UTC(2026, 11, 4)
const ActionTypeOnly = t.type({ ActionType: t.string })

describe('view-ended decoder: fast path = plain io-ts codec', () => {
  const agree = (u: unknown) => expectSameDecoding(VIEW_ENDED_FIELDS, decodeViewEnded, plainViewEnded, u)
  it('agrees on arbitrary JSON-like objects, nearly valid payloads and anything JSON.parse returns', () => {
    fc.assert(fc.property(anyViewEnded, agree), { numRuns: 3000 })
    fc.assert(fc.property(nearlyValidViewEnded, agree), { numRuns: 3000 })
    fc.assert(fc.property(fc.json(), (text) => agree(JSON.parse(text))), { numRuns: 1000 })
  })

  it('the generators reach both sides', () => {
    const rights = fc.sample(nearlyValidViewEnded, 500).filter((u) => E.isRight(plainViewEnded(u))).length
    expect(rights).toBeGreaterThan(20)
    expect(rights).toBeLessThan(480)
  })
})

describe('action-tracked decoder: fast path = plain io-ts codec', () => {
  const agree = (u: unknown) => expectSameDecoding(VIEW_ACTION_FIELDS, decodeViewAction, plainViewAction, u)
  it('agrees on arbitrary JSON-like objects, nearly valid payloads and anything JSON.parse returns', () => {
    fc.assert(fc.property(anyViewAction, agree), { numRuns: 3000 })
    fc.assert(fc.property(nearlyValidViewAction, agree), { numRuns: 3000 })
    fc.assert(fc.property(fc.json(), (text) => agree(JSON.parse(text))), { numRuns: 1000 })
  })

  it('the ActionType check agrees with its codec: a missing or non-text ActionType is undecodable, another action is skipped', () => {
    const plainAction = decodeWith(ActionTypeOnly)
    fc.assert(
      fc.property(fc.oneof(anyViewAction, fc.json().map((t) => JSON.parse(t) as unknown)), (u) => {
        const decided = decideActionTracked(u, NOW)
        const action = plainAction(u)
        if (E.isLeft(action)) expect(decided).toEqual(action)
        else if (action.right.ActionType !== 'ViewPropertyObject') expect(decided).toEqual(E.right({ kind: 'skip', reason: 'not-a-view-action' }))
        else expect(E.isLeft(decided) && decided.left.reason === 'undecodable').toBe(E.isLeft(plainViewAction(u)))
      }),
      { numRuns: 2000 },
    )
  })

  it('the generators reach both sides', () => {
    const rights = fc.sample(nearlyValidViewAction, 500).filter((u) => E.isRight(plainViewAction(u))).length
    expect(rights).toBeGreaterThan(20)
    expect(rights).toBeLessThan(480)
  })
})

describe('view source classification', () => {
  it('a known value, an unknown one, an absent one and a non-text one', () => {
    expect(classifyViewSource('Map')).toEqual({ source: 'Map', known: true, raw: 'Map' })
    expect(classifyViewSource('map')).toEqual({ source: 'Unknown', known: false, raw: 'map' })
    expect(classifyViewSource(undefined)).toEqual({ source: 'Unknown', known: false, raw: null })
    expect(classifyViewSource(null)).toEqual({ source: 'Unknown', known: false, raw: null })
    expect(classifyViewSource({ a: 1 })).toEqual({ source: 'Unknown', known: false, raw: '{"a":1}' })
    expect(classifyViewSource('Drone', ['Drone'])).toEqual({ source: 'Drone', known: true, raw: 'Drone' })
    expect(classifyViewSource('Map', ['Drone'])).toEqual({ source: 'Unknown', known: false, raw: 'Map' })
  })
})
