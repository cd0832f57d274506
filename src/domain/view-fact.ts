import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { DimensionPath } from './dimension-path.js'
import type { EventContext } from './envelope.js'
import { asGuid, GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { checkColumns, dateTime, fitsColumn, uint32 } from './column-limits.js'
import { decodeWithFastPath, instantOf, INVALID, optionalGuid, plainObject } from './fast-codec.js'
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

/** The valid payload by hand (no combinator allocations); anything else goes to the io-ts codec. */
const acceptViewEnded = (u: unknown): ViewEndedPayload | undefined => {
  const o = plainObject(u)
  if (o === undefined) return undefined
  const PropertyObjectViewId = asGuid(o['PropertyObjectViewId'])
  const PropertyObjectId = asGuid(o['PropertyObjectId'])
  const SessionId = asGuid(o['SessionId'])
  const AnonymousId = asGuid(o['AnonymousId'])
  const ViewedAt = instantOf(o['ViewedAt'])
  const LastActivityAt = instantOf(o['LastActivityAt'])
  const DurationSeconds = o['DurationSeconds']
  const UserId = optionalGuid(o['UserId'])
  if (PropertyObjectViewId === undefined || PropertyObjectId === undefined || SessionId === undefined || AnonymousId === undefined) return undefined
  if (ViewedAt === undefined || LastActivityAt === undefined || typeof DurationSeconds !== 'number' || !Number.isInteger(DurationSeconds) || UserId === INVALID) return undefined
  return {
    PropertyObjectViewId, PropertyObjectId, SessionId, AnonymousId, ViewedAt, LastActivityAt,
    DurationSeconds: DurationSeconds as t.Int, UserId, ViewerRole: o['ViewerRole'], ViewSource: o['ViewSource'],
  }
}

export const decodeViewEnded: (payload: unknown) => E.Either<Poison, ViewEndedPayload> = decodeWithFastPath(ViewEndedPayload, acceptViewEnded)

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
  const decoded = decodeViewEnded(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  if (isEmptyGuid(p.PropertyObjectViewId) || isEmptyGuid(p.PropertyObjectId) || isEmptyGuid(p.SessionId))
    return E.left(poison('empty-id', 'PropertyObjectViewId, PropertyObjectId or SessionId is Guid.Empty'))
  if (p.DurationSeconds < 0) return E.left(poison('negative-duration', 'DurationSeconds is negative'))
  const at = checkEventTime('ViewedAt', p.ViewedAt, now)
  if (E.isLeft(at)) return at
  if (!fitsColumn('DateTime', p.ViewedAt) || !fitsColumn('DateTime', p.LastActivityAt) || !fitsColumn('UInt32', p.DurationSeconds)) {
    const checked = checkColumns([dateTime('ViewedAt', p.ViewedAt), dateTime('LastActivityAt', p.LastActivityAt), uint32('DurationSeconds', p.DurationSeconds)])
    if (E.isLeft(checked)) return checked
  }
  return E.right({ payload: p, viewSource: classifyViewSource(p.ViewSource, knownSources) })
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

/**
 * One view fact; `closing` is absent for the open fact (action-tracked). The path's fields are
 * written out rather than spread: one row per view record stays alive until its insert, and a
 * literal of fixed shape is the smallest object V8 makes of it.
 */
export const viewFactRow = (
  ctx: EventContext,
  v: ViewFields,
  path: DimensionPath,
  viewSource: ClassifiedViewSource,
  closing?: { readonly lastActivityAt: Instant; readonly durationSeconds: number },
): ViewFactRow => {
  const userId = v.UserId ?? null
  return {
    developerId: path.developerId,
    projectId: path.projectId,
    buildingId: path.buildingId,
    layoutGroupId: path.layoutGroupId,
    layoutId: path.layoutId,
    propertyObjectId: path.propertyObjectId,
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
