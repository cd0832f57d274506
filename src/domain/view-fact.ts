import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { describeErrors } from './decode-errors.js'
import type { DimensionPath } from './dimension-path.js'
import type { EventContext } from './envelope.js'
import { GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { HOUR_MS, InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'
import { classifyViewSource, type ViewSource } from './view-source.js'
import { viewViewerKind, type ViewerKind } from './viewer-kind.js'

/** A closed view (property-object-view-ended); open and closed facts merge on read by PropertyObjectViewId. */
export const ViewEndedPayload = t.intersection([
  t.type({
    PropertyObjectViewId: GuidCodec,
    PropertyObjectId: GuidCodec,
    SessionId: GuidCodec,
    AnonymousId: GuidCodec,
    ViewedAt: InstantCodec,
    LastActivityAt: InstantCodec,
    DurationSeconds: t.Int,
  }),
  t.partial({ UserId: t.union([GuidCodec, t.null]), ViewerRole: t.unknown, ViewSource: t.unknown }),
])
export type ViewEndedPayload = t.TypeOf<typeof ViewEndedPayload>

export interface ViewFactRow extends DimensionPath {
  readonly factId: string
  readonly sourceEventId: string
  readonly propertyObjectViewId: Guid
  readonly sessionId: Guid
  readonly anonymousId: Guid
  readonly userId: Guid | null
  readonly viewerKind: ViewerKind
  readonly viewSource: ViewSource
  readonly isClosed: boolean
  readonly viewedAt: Instant
  readonly lastActivityAt: Instant | null
  readonly durationSeconds: number | null
  readonly eventTime: Instant
}

export interface ViewEndedDecision {
  readonly payload: ViewEndedPayload
  readonly unknownViewSource: boolean
}

export const decideViewEnded = (payload: unknown, now: Instant): E.Either<Poison, ViewEndedDecision> => {
  const decoded = ViewEndedPayload.decode(payload)
  if (E.isLeft(decoded)) return E.left(poison('undecodable', describeErrors(decoded.left)))
  const p = decoded.right
  if ([p.PropertyObjectViewId, p.PropertyObjectId, p.SessionId].some(isEmptyGuid))
    return E.left(poison('empty-id', 'PropertyObjectViewId, PropertyObjectId or SessionId is Guid.Empty'))
  if (p.DurationSeconds < 0) return E.left(poison('negative-duration', `DurationSeconds is ${p.DurationSeconds}`))
  if (p.ViewedAt > now + HOUR_MS) return E.left(poison('created-at-in-future', 'ViewedAt is more than 1 h ahead of now'))
  return E.right({ payload: p, unknownViewSource: !classifyViewSource(p.ViewSource).known })
}

export const closedViewFact = (ctx: EventContext, p: ViewEndedPayload, path: DimensionPath): ViewFactRow => {
  const userId = p.UserId ?? null
  return {
    ...path,
    factId: ctx.messageId,
    sourceEventId: ctx.messageId,
    propertyObjectViewId: p.PropertyObjectViewId,
    sessionId: p.SessionId,
    anonymousId: p.AnonymousId,
    userId,
    viewerKind: viewViewerKind(userId, typeof p.ViewerRole === 'string' ? p.ViewerRole : null),
    viewSource: classifyViewSource(p.ViewSource).source,
    isClosed: true,
    viewedAt: p.ViewedAt,
    lastActivityAt: p.LastActivityAt,
    durationSeconds: p.DurationSeconds,
    eventTime: p.ViewedAt,
  }
}
