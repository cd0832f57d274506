import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { decodeWith } from '../../../src/domain/decode-with.js'
import { decodeSessionEnded, SessionEndedCodec } from '../../../src/domain/session-ended.js'
import { dateField, dropSome, expectSameDecoding, guidField, int32Edges, isoDate, other, uuid, validDate, withExtraFields } from '../../support/wire-arbitraries.js'

// The hand-written fast path in front of the session-ended codec must change nothing but speed:
// the same Right value, or the same poison reason and detail, as the plain io-ts codec.
const decodePlain = decodeWith(SessionEndedCodec)
const FIELDS = ['SessionId', 'AnonymousId', 'LastActivityAt', 'DurationSeconds', 'UserId', 'CreatedAt', 'StartedAt'] as const

const payload = withExtraFields(
  fc.record(
    {
      SessionId: guidField,
      AnonymousId: guidField,
      LastActivityAt: dateField,
      DurationSeconds: fc.oneof(int32Edges, fc.integer({ min: -100, max: 1_000_000 }), fc.string({ maxLength: 4 }), other),
      UserId: guidField,
      CreatedAt: dateField,
      StartedAt: dateField,
    },
    { requiredKeys: [] },
  ),
)

/** Mostly valid payloads, so the fast path's accepting side gets exercised as much as its refusals. */
const nearlyValid = dropSome(
  fc.record({
    SessionId: uuid,
    AnonymousId: uuid,
    LastActivityAt: fc.oneof(isoDate, validDate),
    DurationSeconds: fc.oneof(int32Edges, fc.integer({ min: -10, max: 86_400 })),
    UserId: fc.oneof(uuid, fc.constant(null)),
    CreatedAt: fc.oneof(isoDate, validDate, fc.constant(null)),
    StartedAt: fc.oneof(isoDate, validDate, fc.constant(null)),
  }),
  FIELDS,
)

const agree = (u: unknown): void => expectSameDecoding(FIELDS, decodeSessionEnded, decodePlain, u)

describe('session-ended decoder: fast path = plain io-ts codec', () => {
  it('agrees on arbitrary JSON-like objects', () => {
    fc.assert(fc.property(payload, (u) => agree(u)), { numRuns: 3000 })
  })

  it('agrees on nearly valid payloads (fields dropped, Int32 edges, date variants)', () => {
    fc.assert(fc.property(nearlyValid, (u) => agree(u)), { numRuns: 3000 })
  })

  it('agrees on anything JSON.parse can return', () => {
    fc.assert(fc.property(fc.json(), (text) => agree(JSON.parse(text))), { numRuns: 1000 })
  })

  it('the generators reach both sides', () => {
    const rights = fc.sample(nearlyValid, 500).filter((u) => E.isRight(decodePlain(u))).length
    expect(rights).toBeGreaterThan(20)
    expect(rights).toBeLessThan(480)
  })
})
