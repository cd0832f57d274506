import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { decodeWith } from '../../../src/domain/decode-with.js'
import { decodeSessionEnded, SessionEndedCodec } from '../../../src/domain/session-ended.js'

// The hand-written fast path in front of the session-ended codec must change nothing but speed:
// the same Right value, or the same poison reason and detail, as the plain io-ts codec.
const decodePlain = decodeWith(SessionEndedCodec)
const FIELDS = ['SessionId', 'AnonymousId', 'LastActivityAt', 'DurationSeconds', 'UserId', 'CreatedAt', 'StartedAt'] as const

/** What the rest of the pipeline reads of a decoded payload (io-ts also keeps the extra fields). */
const known = (p: Record<string, unknown>) => Object.fromEntries(FIELDS.map((f) => [f, p[f]]))
const outcome = (r: E.Either<{ reason: string; detail: string }, Record<string, unknown>>) =>
  E.isLeft(r) ? { left: { reason: r.left.reason, detail: r.left.detail } } : { right: known(r.right) }

const hex = fc.constantFrom(...'0123456789abcdefABCDEF')
const hexes = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((a) => a.join(''))
const uuid = fc.tuple(hexes(8), hexes(4), hexes(4), hexes(4), hexes(12)).map((p) => p.join('-'))
const badUuid = fc.oneof(
  uuid.map((u) => u.slice(1)),
  uuid.map((u) => `${u}0`),
  uuid.map((u) => u.replace('-', 'x')),
  uuid.map((u) => `g${u.slice(1)}`),
  uuid.map((u) => `é${u.slice(1)}`),
  uuid.map((u) => `{${u}}`),
  fc.constant('00000000-0000-0000-0000-000000000000'),
  fc.string({ maxLength: 40 }),
)

const pad = (n: number, width: number) => String(n).padStart(width, '0')
const isoDate = fc
  .record({
    year: fc.oneof(fc.integer({ min: 0, max: 9999 }), fc.constantFrom(1, 1970, 2000, 2024, 2026, 2106, 2100)),
    month: fc.integer({ min: 0, max: 13 }),
    day: fc.integer({ min: 0, max: 32 }),
    hour: fc.integer({ min: 0, max: 24 }),
    minute: fc.integer({ min: 0, max: 60 }),
    second: fc.integer({ min: 0, max: 60 }),
    sep: fc.constantFrom('T', ' ', 't', '_'),
    fraction: fc.constantFrom('', '.', '.1', '.12', '.123', '.1234567', ',5', '.12x'),
    zone: fc.constantFrom('', 'Z', 'z', 'ZZ', '+00:00', '+03:00', '-05:30', '+0530', '-0800', '+3', '+03:0', '+14:00', '+ab:cd', ' '),
  })
  .map((d) => `${pad(d.year, 4)}-${pad(d.month, 2)}-${pad(d.day, 2)}${d.sep}${pad(d.hour, 2)}:${pad(d.minute, 2)}:${pad(d.second, 2)}${d.fraction}${d.zone}`)
const dateLike = fc.oneof(
  isoDate,
  isoDate.map((s) => s.slice(0, 16)),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('0001-01-01T00:00:00', '0001-01-01T00:00:00+00:00', '2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', 'yesterday', ''),
  fc.string({ maxLength: 30 }),
)

const int32Edges = fc.constantFrom(0, -0, 1, -1, 2_147_483_647, 2_147_483_648, -2_147_483_648, -2_147_483_649, 1.5, -0.5, 1e21, Number.MAX_SAFE_INTEGER)
const other = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}))

const guidField = fc.oneof(uuid, badUuid, other)
const dateField = fc.oneof(dateLike, other)
const payload = fc
  .record(
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
  )
  .chain((known) => fc.dictionary(fc.string({ maxLength: 8 }), other, { maxKeys: 3 }).map((extra) => ({ ...extra, ...known })))

const validDate = fc
  .tuple(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), fc.constantFrom('Z', '+03:00', '-0530', '', '.1234567+01:00'))
  .map(([d, zone]) => d.toISOString().slice(0, 19) + zone)

/** Mostly valid payloads, so the fast path's accepting side gets exercised as much as its refusals. */
const nearlyValid = fc
  .record({
    SessionId: uuid,
    AnonymousId: uuid,
    LastActivityAt: fc.oneof(isoDate, validDate),
    DurationSeconds: fc.oneof(int32Edges, fc.integer({ min: -10, max: 86_400 })),
    UserId: fc.oneof(uuid, fc.constant(null)),
    CreatedAt: fc.oneof(isoDate, validDate, fc.constant(null)),
    StartedAt: fc.oneof(isoDate, validDate, fc.constant(null)),
  })
  .chain((p) => fc.subarray([...FIELDS]).map((drop) => Object.fromEntries(Object.entries(p).filter(([k]) => !drop.includes(k as never)))))

const agree = (u: unknown): void => {
  expect(outcome(decodeSessionEnded(u))).toEqual(outcome(decodePlain(u)))
}

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
