import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import type { DimensionPath } from './dimension-path.js'
import type { EventContext } from './envelope.js'
import { GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { checkColumns, dateTime, uint32 } from './column-limits.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'
import { classifyViewSource, DEFAULT_VIEW_SOURCES, type ClassifiedViewSource, type ViewSource } from './view-source.js'
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
  /** ViewSource as it came on the wire (null when absent), beside its classification. */
  readonly viewSourceRaw: string | null
  readonly isClosed: boolean
  readonly viewedAt: Instant
  readonly lastActivityAt: Instant | null
  readonly durationSeconds: number | null
  readonly eventTime: Instant
}

export interface ViewEndedDecision {
  readonly payload: ViewEndedPayload
  readonly viewSource: ClassifiedViewSource
}

export const decideViewEnded = (
  payload: unknown,
  now: Instant,
  knownSources: readonly string[] = DEFAULT_VIEW_SOURCES,
): E.Either<Poison, ViewEndedDecision> => {
  const decoded = decodeWith(ViewEndedPayload)(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  if ([p.PropertyObjectViewId, p.PropertyObjectId, p.SessionId].some(isEmptyGuid))
    return E.left(poison('empty-id', 'PropertyObjectViewId, PropertyObjectId or SessionId is Guid.Empty'))
  if (p.DurationSeconds < 0) return E.left(poison('negative-duration', 'DurationSeconds is negative'))
  const checked = E.flatMap(checkEventTime('ViewedAt', p.ViewedAt, now), () =>
    checkColumns([dateTime('ViewedAt', p.ViewedAt), dateTime('LastActivityAt', p.LastActivityAt), uint32('DurationSeconds', p.DurationSeconds)]),
  )
  return E.as(checked, { payload: p, viewSource: classifyViewSource(p.ViewSource, knownSources) })
}

/** What the open and the closed fact of a view both carry. */
export interface ViewFields {
  readonly PropertyObjectViewId: Guid
  readonly SessionId: Guid
  readonly AnonymousId: Guid
  readonly UserId?: Guid | null
  readonly ViewerRole?: unknown
  readonly ViewedAt: Instant
}

/** One view fact; `closing` is absent for the open fact (action-tracked). */
export const viewFactRow = (
  ctx: EventContext,
  v: ViewFields,
  path: DimensionPath,
  viewSource: ClassifiedViewSource,
  closing?: { readonly lastActivityAt: Instant; readonly durationSeconds: number },
): ViewFactRow => {
  const userId = v.UserId ?? null
  return {
    ...path,
    factId: ctx.messageId,
    sourceEventId: ctx.messageId,
    propertyObjectViewId: v.PropertyObjectViewId,
    sessionId: v.SessionId,
    anonymousId: v.AnonymousId,
    userId,
    viewerKind: viewViewerKind(userId, typeof v.ViewerRole === 'string' ? v.ViewerRole : null),
    viewSource: viewSource.source,
    viewSourceRaw: viewSource.raw,
    isClosed: closing !== undefined,
    viewedAt: v.ViewedAt,
    lastActivityAt: closing?.lastActivityAt ?? null,
    durationSeconds: closing?.durationSeconds ?? null,
    eventTime: v.ViewedAt,
  }
}

export const closedViewFact = (ctx: EventContext, { payload: p, viewSource }: ViewEndedDecision, path: DimensionPath): ViewFactRow =>
  viewFactRow(ctx, p, path, viewSource, { lastActivityAt: p.LastActivityAt, durationSeconds: p.DurationSeconds })
