import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import type { EventContext } from './envelope.js'
import { EMPTY_GUID, GuidCodec, isEmptyGuid } from './guid.js'
import { pipe } from 'fp-ts/lib/function.js'
import { checkColumns, dateTime, uint32 } from './column-limits.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'
import type { SessionFactRow } from './session-fact.js'
import { sessionViewerKind } from './viewer-kind.js'

const INT32_MAX = 2_147_483_647
const Int32 = t.refinement(t.Int, (n) => n <= INT32_MAX && n >= -INT32_MAX - 1, 'Int32')
const OptionalInstant = t.union([InstantCodec, t.null])

/** session-ended payload (seed 000). StartedAt is seed 001's name for CreatedAt; CreatedAt wins. */
export const SessionEndedPayload = t.intersection([
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
export type SessionEndedPayload = t.TypeOf<typeof SessionEndedPayload>

export const decodeSessionEnded = (payload: unknown): E.Either<Poison, SessionEndedPayload> => {
  return decodeWith(SessionEndedPayload)(payload)
}

const startOf = (p: SessionEndedPayload): Instant | undefined => p.CreatedAt ?? p.StartedAt ?? undefined

/** The poison rules of seed 000, step 2, in the order the seed lists them. */
export const validateSessionEnded = (p: SessionEndedPayload, now: Instant): E.Either<Poison, Instant> => {
  if (isEmptyGuid(p.SessionId)) return E.left(poison('empty-session-id', 'SessionId is Guid.Empty'))
  if (p.DurationSeconds < 0) return E.left(poison('negative-duration', `DurationSeconds is ${p.DurationSeconds}`))
  return pipe(
    checkEventTime('CreatedAt', startOf(p), now),
    E.tap((createdAt) =>
      checkColumns([dateTime('StartedAt', createdAt), dateTime('LastActivityAt', p.LastActivityAt), uint32('DurationSeconds', p.DurationSeconds)]),
    ),
  )
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
export const sessionEndedFact = (ctx: EventContext, payload: unknown, now: Instant): E.Either<Poison, SessionFactRow> =>
  E.flatMap(decodeSessionEnded(payload), (p) =>
    E.map((at: Instant) => toSessionFact(ctx, p, at))(validateSessionEnded(p, now)),
  )
