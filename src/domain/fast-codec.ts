import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import { asGuid, type Guid } from './guid.js'
import { parseInstant, type Instant } from './instant.js'
import type { Poison } from './poison.js'

/**
 * decodeWith(codec) with a hand-written validate in front: `accept` returns the decoded value of
 * an input it recognises as valid, or undefined; anything it does not take is decoded by `codec`
 * itself, so the errors (and with them every poison detail) stay exactly io-ts's. io-ts's decode
 * allocates a context, an Either and a copy per field of an intersection — per record.
 */
export const decodeWithFastPath =
  <A, O>(codec: t.Type<A, O, unknown>, accept: (u: unknown) => A | undefined) => {
    const plain = decodeWith(codec)
    return (u: unknown): E.Either<Poison, A> => {
      const a = accept(u)
      return a === undefined ? plain(u) : E.right(a)
    }
  }

/** A plain JSON object (what JSON.parse makes of `{…}`), as a record of its fields. */
export const plainObject = (u: unknown): Readonly<Record<string, unknown>> | undefined =>
  typeof u === 'object' && u !== null && Object.getPrototypeOf(u) === Object.prototype ? (u as Record<string, unknown>) : undefined

/** Sentinel of the optional readers: the field is there but not valid. */
export const INVALID = Symbol('invalid')

/** An optional `Guid | null` field: absent stays undefined. */
export const optionalGuid = (u: unknown): Guid | null | undefined | typeof INVALID =>
  u === undefined || u === null ? u : (asGuid(u) ?? INVALID)

/** A required instant; undefined when not ISO-8601 text. */
export const instantOf = (u: unknown): Instant | undefined => (typeof u === 'string' ? parseInstant(u) : undefined)

/** An optional `Instant | null` field: absent stays undefined. */
export const optionalInstant = (u: unknown): Instant | null | undefined | typeof INVALID =>
  u === undefined || u === null ? u : (instantOf(u) ?? INVALID)

const INT32_MAX = 2_147_483_647

export const isInt32 = (u: unknown): u is number => typeof u === 'number' && Number.isInteger(u) && u <= INT32_MAX && u >= -INT32_MAX - 1
