import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWithFastPath, instantOf, INVALID, optionalGuid, plainObject } from './fast-codec.js'
import type { DimensionPath } from './dimension-path.js'
import type { EventContext } from './envelope.js'
import { funnelRow, type FunnelRow } from './funnel.js'
import { asGuid, EMPTY_GUID, GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { checkColumns, date, dateTime, fitsColumn } from './column-limits.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'
import { viewFactRow, type ViewFactRow } from './view-fact.js'
import { classifyViewSource, DEFAULT_VIEW_SOURCES, type ClassifiedViewSource } from './view-source.js'

export const VIEW_ACTION = 'ViewPropertyObject'

/** action-tracked with ActionType = ViewPropertyObject: the open view fact and the funnel's Views stage. */
export const ViewActionPayload = t.intersection([
  t.type({ PropertyObjectViewId: GuidCodec, PropertyObjectId: GuidCodec, ViewedAt: InstantCodec }),
  t.partial({
    SessionId: GuidCodec,
    AnonymousId: GuidCodec,
    UserId: t.union([GuidCodec, t.null]),
    ViewerRole: t.unknown,
    ViewSource: t.unknown,
  }),
])
export type ViewActionPayload = t.TypeOf<typeof ViewActionPayload>

const ActionCodec = t.type({ ActionType: t.string })
const decodeAction = decodeWithFastPath(ActionCodec, (u) => {
  const ActionType = plainObject(u)?.['ActionType']
  return typeof ActionType === 'string' ? { ActionType } : undefined
})

/** An optional field that is a Guid when present (null is not allowed). */
const optionalStrictGuid = (u: unknown): Guid | undefined | typeof INVALID => (u === undefined ? undefined : (asGuid(u) ?? INVALID))

/** The valid payload by hand (no combinator allocations); anything else goes to the io-ts codec. */
const acceptViewAction = (u: unknown): ViewActionPayload | undefined => {
  const o = plainObject(u)
  if (o === undefined) return undefined
  const PropertyObjectViewId = asGuid(o['PropertyObjectViewId'])
  const PropertyObjectId = asGuid(o['PropertyObjectId'])
  const ViewedAt = instantOf(o['ViewedAt'])
  const SessionId = optionalStrictGuid(o['SessionId'])
  const AnonymousId = optionalStrictGuid(o['AnonymousId'])
  const UserId = optionalGuid(o['UserId'])
  if (PropertyObjectViewId === undefined || PropertyObjectId === undefined || ViewedAt === undefined) return undefined
  if (SessionId === INVALID || AnonymousId === INVALID || UserId === INVALID) return undefined
  return { PropertyObjectViewId, PropertyObjectId, ViewedAt, SessionId, AnonymousId, UserId, ViewerRole: o['ViewerRole'], ViewSource: o['ViewSource'] }
}

export const decodeViewAction: (payload: unknown) => E.Either<Poison, ViewActionPayload> = decodeWithFastPath(ViewActionPayload, acceptViewAction)

const SKIP: ActionDecision = { kind: 'skip', reason: 'not-a-view-action' }

export type ActionDecision =
  | { readonly kind: 'view'; readonly payload: ViewActionPayload; readonly viewSource: ClassifiedViewSource }
  | { readonly kind: 'skip'; readonly reason: 'not-a-view-action' }

export const decideActionTracked = (
  payload: unknown,
  now: Instant,
  knownSources: readonly string[] = DEFAULT_VIEW_SOURCES,
): E.Either<Poison, ActionDecision> => {
  const action = decodeAction(payload)
  if (E.isLeft(action)) return action
  if (action.right.ActionType !== VIEW_ACTION) return E.right(SKIP)
  const decoded = decodeViewAction(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  if (isEmptyGuid(p.PropertyObjectViewId) || isEmptyGuid(p.PropertyObjectId))
    return E.left(poison('empty-id', 'PropertyObjectViewId or PropertyObjectId is Guid.Empty'))
  const at = checkEventTime('ViewedAt', p.ViewedAt, now)
  if (E.isLeft(at)) return at
  if (!fitsColumn('DateTime', p.ViewedAt) || !fitsColumn('Date', p.ViewedAt)) {
    const checked = checkColumns([dateTime('ViewedAt', p.ViewedAt), date('EventDate', p.ViewedAt)])
    if (E.isLeft(checked)) return checked
  }
  return E.right({ kind: 'view', payload: p, viewSource: classifyViewSource(p.ViewSource, knownSources) })
}

/** The open fact; a missing SessionId/AnonymousId is the empty sentinel, which no session fact carries. */
export const openViewFact = (ctx: EventContext, p: ViewActionPayload, path: DimensionPath, viewSource: ClassifiedViewSource): ViewFactRow =>
  viewFactRow(
    ctx,
    { PropertyObjectViewId: p.PropertyObjectViewId, SessionId: p.SessionId ?? EMPTY_GUID, AnonymousId: p.AnonymousId ?? EMPTY_GUID, UserId: p.UserId, ViewerRole: p.ViewerRole, ViewedAt: p.ViewedAt },
    path,
    viewSource,
  )

/** Views counts distinct PropertyObjectViewIds. */
export const viewsFunnelRow = (ctx: EventContext, p: ViewActionPayload, path: DimensionPath): FunnelRow =>
  funnelRow('Views', path, p.PropertyObjectViewId, p.ViewedAt, ctx.messageId)
