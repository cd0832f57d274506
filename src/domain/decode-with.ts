import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import { describeErrors } from './decode-errors.js'
import { poison, type Poison } from './poison.js'

/** Decodes with an io-ts codec; a payload it rejects is poison `undecodable` with the errors as detail. */
export const decodeWith =
  <A, O>(codec: t.Type<A, O, unknown>) =>
  (payload: unknown): E.Either<Poison, A> => {
    const decoded = codec.decode(payload)
    return E.isLeft(decoded) ? E.left(poison('undecodable', describeErrors(decoded.left))) : decoded
  }
