import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import { GuidCodec, isEmptyGuid } from './guid.js'
import { checkColumns, date } from './column-limits.js'
import { checkEventTime } from './event-time.js'
import { InstantCodec, type Instant } from './instant.js'
import type { FunnelCandidate } from './lead-created.js'
import { poison, type Poison } from './poison.js'

/**
 * OccurredAt follows the event-time rule (default or > now + 1 h is poison) and must fit EventDate.
 * favorites / selections / crm booking and deal events: `<keyField>`, PropertyObjectId and
 * OccurredAt (seed 001); the business key counts once per stage by uniq.
 */
export const funnelEventCandidate = (keyField: string) => {
  // Built once per consumer, not per event.
  const decode = decodeWith(t.type({ [keyField]: GuidCodec, PropertyObjectId: GuidCodec, OccurredAt: InstantCodec }))
  return (payload: unknown, now: Instant): E.Either<Poison, FunnelCandidate> => {
    const decoded = decode(payload)
    if (E.isLeft(decoded)) return decoded
    const key = decoded.right[keyField] as t.TypeOf<typeof GuidCodec>
    const { PropertyObjectId, OccurredAt } = decoded.right
    if (isEmptyGuid(key) || isEmptyGuid(PropertyObjectId))
      return E.left(poison('empty-id', `${keyField} or PropertyObjectId is Guid.Empty`))
    const checked = E.flatMap(checkEventTime('OccurredAt', OccurredAt, now), () => checkColumns([date('EventDate', OccurredAt)]))
    return E.as(checked, { propertyObjectId: PropertyObjectId, businessKey: key, occurredAt: OccurredAt })
  }
}
