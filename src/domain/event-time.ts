import * as E from 'fp-ts/lib/Either.js'
import { DOTNET_DEFAULT_INSTANT, HOUR_MS, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'

/**
 * The rule seed 000 gives CreatedAt, applied to every event's own time (CreatedAt, OccurredAt,
 * ViewedAt): default(DateTimeOffset) or more than 1 h ahead of now is poison.
 */
export const checkEventTime = (field: string, at: Instant | undefined, now: Instant): E.Either<Poison, Instant> => {
  if (at === undefined || at === DOTNET_DEFAULT_INSTANT)
    return E.left(poison('default-created-at', `${field} is missing or default(DateTimeOffset)`))
  if (at > now + HOUR_MS)
    return E.left(poison('created-at-in-future', `${field} is more than 1 h ahead of now`))
  return E.right(at)
}
