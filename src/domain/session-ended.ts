import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { EventContext } from './envelope.js'
import { asGuid, EMPTY_GUID, GuidCodec, isEmptyGuid } from './guid.js'
import { checkColumns, dateTime, fitsColumn, uint32 } from './column-limits.js'
import { decodeWithFastPath, instantOf, INVALID, isInt32, optionalGuid, optionalInstant, plainObject } from './fast-codec.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'
import type { SessionFactRow } from './session-fact.js'
import { sessionViewerKind } from './viewer-kind.js'

// Written apart from fast-codec's isInt32 on purpose: the property test holds the two paths equal,
// which only proves something while neither shares the other's bounds.
const INT32_MAX = 2_147_483_647
const Int32 = t.refinement(t.Int, (n) => n <= INT32_MAX && n >= -INT32_MAX - 1, 'Int32')
const OptionalInstant = t.union([InstantCodec, t.null])

/**
 * session-ended payload (seed 000). StartedAt is seed 001's name for CreatedAt; CreatedAt wins.
 * The plain io-ts codec, without the fast path (exported for the test that the two agree).
 */
export const SessionEndedCodec = t.intersection([
  t.type({
    SessionId: GuidCodec,
    AnonymousId: GuidCodec,
    LastActivityAt: InstantCodec,
    DurationSeconds: Int32,
  }),
  t.partial({
    UserId: t.union([GuidCodec, t.null]),
    CreatedAt: OptionalInstant,
    StartedAt: OptionalInstant,
  }),
])
export type SessionEndedPayload = t.TypeOf<typeof SessionEndedCodec>

/** The valid payload by hand (no combinator allocations); anything else goes to the io-ts codec. */
const acceptSessionEnded = (u: unknown): SessionEndedPayload | undefined => {
  const o = plainObject(u)
  if (o === undefined) return undefined
  const SessionId = asGuid(o['SessionId'])
  const AnonymousId = asGuid(o['AnonymousId'])
  const LastActivityAt = instantOf(o['LastActivityAt'])
  const DurationSeconds = o['DurationSeconds']
  const UserId = optionalGuid(o['UserId'])
  const CreatedAt = optionalInstant(o['CreatedAt'])
  const StartedAt = optionalInstant(o['StartedAt'])
  if (SessionId === undefined || AnonymousId === undefined || LastActivityAt === undefined || !isInt32(DurationSeconds)) return undefined
  if (UserId === INVALID || CreatedAt === INVALID || StartedAt === INVALID) return undefined
  return { SessionId, AnonymousId, LastActivityAt, DurationSeconds: DurationSeconds as t.Branded<number, t.IntBrand>, UserId, CreatedAt, StartedAt }
}

export const decodeSessionEnded: (payload: unknown) => E.Either<Poison, SessionEndedPayload> = decodeWithFastPath(SessionEndedCodec, acceptSessionEnded)

const startOf = (p: SessionEndedPayload): Instant | undefined => p.CreatedAt ?? p.StartedAt ?? undefined

/** The poison rules of seed 000, step 2, in the order the seed lists them. */
export const validateSessionEnded = (p: SessionEndedPayload, now: Instant): E.Either<Poison, Instant> => {
  if (isEmptyGuid(p.SessionId)) return E.left(poison('empty-session-id', 'SessionId is Guid.Empty'))
  if (p.DurationSeconds < 0) return E.left(poison('negative-duration', 'DurationSeconds is negative'))
  const createdAt = checkEventTime('CreatedAt', startOf(p), now)
  if (E.isLeft(createdAt)) return createdAt
  const at = createdAt.right
  if (fitsColumn('DateTime', at) && fitsColumn('DateTime', p.LastActivityAt) && fitsColumn('UInt32', p.DurationSeconds)) return createdAt
  return E.as(checkColumns([dateTime('StartedAt', at), dateTime('LastActivityAt', p.LastActivityAt), uint32('DurationSeconds', p.DurationSeconds)]), at)
}

export const toSessionFact = (ctx: EventContext, p: SessionEndedPayload, createdAt: Instant): SessionFactRow => {
  const userId = p.UserId ?? null
  return {
    factId: ctx.messageId,
    sourceEventId: ctx.messageId,
    sessionId: p.SessionId,
    anonymousId: p.AnonymousId,
    userId,
    viewerKind: sessionViewerKind(userId),
    tenantId: EMPTY_GUID,
    brandId: null,
    developerId: null,
    eventTime: createdAt,
    startedAt: createdAt,
    lastActivityAt: p.LastActivityAt,
    durationSeconds: p.DurationSeconds,
  }
}

/** decode → validate → map for one session-ended event. */
export const sessionEndedFact = (ctx: EventContext, payload: unknown, now: Instant): E.Either<Poison, SessionFactRow> => {
  const decoded = decodeSessionEnded(payload)
  if (E.isLeft(decoded)) return decoded
  const at = validateSessionEnded(decoded.right, now)
  return E.isLeft(at) ? at : E.right(toSessionFact(ctx, decoded.right, at.right))
}
