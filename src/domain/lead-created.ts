import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import { GuidCodec, isEmptyGuid, type Guid } from './guid.js'
import { checkColumns, date } from './column-limits.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'

/**
 * lead-created payload (seed 003). OriginPropertyObjectId is an additive field the producer has
 * not shipped yet; TenantId, names, phone and ClientId are deliberately not read.
 */
export const LeadCreatedPayload = t.intersection([
  t.type({ LeadId: GuidCodec, CreatedAt: InstantCodec }),
  t.partial({ OriginPropertyObjectId: t.union([GuidCodec, t.null]) }),
])
export type LeadCreatedPayload = t.TypeOf<typeof LeadCreatedPayload>

/** A lead the object funnel can count, once its property object's hierarchy is known. */
export interface FunnelCandidate {
  readonly propertyObjectId: Guid
  readonly businessKey: Guid
  readonly occurredAt: Instant
}

export type LeadDecision =
  | { readonly kind: 'count'; readonly candidate: FunnelCandidate }
  | { readonly kind: 'skip'; readonly reason: 'no-origin-property-object' }

export const leadCreatedDecision = (payload: unknown, now: Instant): E.Either<Poison, LeadDecision> => {
  const decoded = decodeWith(LeadCreatedPayload)(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  if (isEmptyGuid(p.LeadId)) return E.left(poison('empty-id', 'LeadId is Guid.Empty'))
  const checked = E.flatMap(checkEventTime('CreatedAt', p.CreatedAt, now), () => checkColumns([date('EventDate', p.CreatedAt)]))
  if (E.isLeft(checked)) return checked
  const origin = p.OriginPropertyObjectId ?? null
  if (origin === null || isEmptyGuid(origin)) return E.right({ kind: 'skip', reason: 'no-origin-property-object' })
  return E.right({ kind: 'count', candidate: { propertyObjectId: origin, businessKey: p.LeadId, occurredAt: p.CreatedAt } })
}
