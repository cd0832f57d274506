import fc from 'fast-check'
import * as E from 'fp-ts/lib/Either.js'
import { expect } from 'vitest'
import type { Poison } from '../../src/domain/poison.js'

// Generators of wire payload fields for the property tests that hold a hand-written decoder equal
// to its io-ts codec: valid values, their edges, and what producers get wrong.

const hex = fc.constantFrom(...'0123456789abcdefABCDEF')
const hexes = (n: number) => fc.array(hex, { minLength: n, maxLength: n }).map((a) => a.join(''))
export const uuid = fc.tuple(hexes(8), hexes(4), hexes(4), hexes(4), hexes(12)).map((p) => p.join('-'))
export const badUuid = fc.oneof(
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
export const isoDate = fc
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
export const dateLike = fc.oneof(
  isoDate,
  isoDate.map((s) => s.slice(0, 16)),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom('0001-01-01T00:00:00', '0001-01-01T00:00:00+00:00', '2026-02-29T00:00:00Z', '2024-02-29T00:00:00Z', 'yesterday', ''),
  fc.string({ maxLength: 30 }),
)

export const int32Edges = fc.constantFrom(0, -0, 1, -1, 2_147_483_647, 2_147_483_648, -2_147_483_648, -2_147_483_649, 1.5, -0.5, 1e21, Number.MAX_SAFE_INTEGER)
export const other = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.integer(), fc.string({ maxLength: 8 }), fc.constant([]), fc.constant({}))

export const validDate = fc
  .tuple(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), fc.constantFrom('Z', '+03:00', '-0530', '', '.1234567+01:00'))
  .map(([d, zone]) => d.toISOString().slice(0, 19) + zone)

export const guidField = fc.oneof(uuid, badUuid, other)
export const dateField = fc.oneof(dateLike, other)

/** Extra fields a producer may add, beside the known ones. */
export const withExtraFields = <T extends Record<string, unknown>>(known: fc.Arbitrary<T>) =>
  known.chain((k) => fc.dictionary(fc.string({ maxLength: 8 }), other, { maxKeys: 3 }).map((extra) => ({ ...extra, ...k })))

/** `p` without a subset of its fields. */
export const dropSome = <T extends Record<string, unknown>>(p: fc.Arbitrary<T>, fields: readonly string[]) =>
  p.chain((v) => fc.subarray([...fields]).map((drop) => Object.fromEntries(Object.entries(v).filter(([k]) => !drop.includes(k)))))

/** The two decoders agree: the same known fields of the value, or the same poison reason and detail. */
export const expectSameDecoding = (
  fields: readonly string[],
  fast: (u: unknown) => E.Either<Poison, object>,
  plain: (u: unknown) => E.Either<Poison, object>,
  u: unknown,
): void => {
  // what the rest of the pipeline reads of a decoded payload (io-ts also keeps the extra fields)
  const outcome = (r: E.Either<Poison, object>) =>
    E.isLeft(r) ? { left: { reason: r.left.reason, detail: r.left.detail } } : { right: Object.fromEntries(fields.map((f) => [f, (r.right as Record<string, unknown>)[f]])) }
  expect(outcome(fast(u))).toEqual(outcome(plain(u)))
}
