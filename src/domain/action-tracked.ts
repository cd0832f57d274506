import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import type { DimensionPath } from './dimension-path.js'
import type { EventContext } from './envelope.js'
import { funnelRow, type FunnelRow } from './funnel.js'
import { EMPTY_GUID, GuidCodec, isEmptyGuid } from './guid.js'
import { checkColumns, date, dateTime } from './column-limits.js'
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

export type ActionDecision =
  | { readonly kind: 'view'; readonly payload: ViewActionPayload; readonly viewSource: ClassifiedViewSource }
  | { readonly kind: 'skip'; readonly reason: 'not-a-view-action' }

export const decideActionTracked = (
  payload: unknown,
  now: Instant,
  knownSources: readonly string[] = DEFAULT_VIEW_SOURCES,
): E.Either<Poison, ActionDecision> => {
  const action = decodeWith(t.type({ ActionType: t.string }))(payload)
  if (E.isLeft(action)) return action
  if (action.right.ActionType !== VIEW_ACTION) return E.right({ kind: 'skip', reason: 'not-a-view-action' })
  const decoded = decodeWith(ViewActionPayload)(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  if (isEmptyGuid(p.PropertyObjectViewId) || isEmptyGuid(p.PropertyObjectId))
    return E.left(poison('empty-id', 'PropertyObjectViewId or PropertyObjectId is Guid.Empty'))
  const checked = E.flatMap(checkEventTime('ViewedAt', p.ViewedAt, now), () =>
    checkColumns([dateTime('ViewedAt', p.ViewedAt), date('EventDate', p.ViewedAt)]),
  )
  const decision: ActionDecision = { kind: 'view', payload: p, viewSource: classifyViewSource(p.ViewSource, knownSources) }
  return E.as(checked, decision)
}

/** The open fact; a missing SessionId/AnonymousId is the empty sentinel, which no session fact carries. */
export const openViewFact = (ctx: EventContext, p: ViewActionPayload, path: DimensionPath, viewSource: ClassifiedViewSource): ViewFactRow =>
  viewFactRow(ctx, { ...p, SessionId: p.SessionId ?? EMPTY_GUID, AnonymousId: p.AnonymousId ?? EMPTY_GUID }, path, viewSource)

/** Views counts distinct PropertyObjectViewIds. */
export const viewsFunnelRow = (ctx: EventContext, p: ViewActionPayload, path: DimensionPath): FunnelRow =>
  funnelRow('Views', path, p.PropertyObjectViewId, p.ViewedAt, ctx.messageId)
