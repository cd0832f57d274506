import type * as E from 'fp-ts/lib/Either.js'
import type { DimensionPath } from '../../domain/dimension-path.js'
import type { DecodedEnvelope } from '../../domain/envelope.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { FunnelStage } from '../../domain/funnel.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { Poison } from '../../domain/poison.js'

/** The warnings of an event that has none: one shared array, not one per record. */
export const NO_WARNINGS: readonly string[] = []

/** What one event asks the engine to do, poison aside (that is the Left). */
export type Interpretation =
  | { readonly kind: 'rows'; readonly rows: readonly FactRow[]; readonly warnings?: readonly string[] }
  | { readonly kind: 'skip'; readonly reason: string }
  | {
      readonly kind: 'enrich'
      readonly propertyObjectId: Guid
      readonly complete: (path: DimensionPath) => readonly FactRow[]
      readonly warnings?: readonly string[]
    }

/** One consumer: its topic, its group and the pure step from an event to rows. */
export interface EventHandler {
  /** Label of logs and metrics, e.g. `session-ended`. */
  readonly name: string
  readonly topic: string
  readonly groupId: string
  /** The funnel stage this consumer feeds, if any (for the funnel's freshness marks). */
  readonly funnelStage?: FunnelStage
  /** This consumer writes the rows DimensionReader looks up: parked records wait for its progress. */
  readonly feedsDimensionLookup?: boolean
  interpret(envelope: DecodedEnvelope, now: Instant): E.Either<Poison, Interpretation>
}
