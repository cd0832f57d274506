import type { Container } from 'inversify'
import type * as E from 'fp-ts/lib/Either.js'
import type { Logger } from '../application/ports/logger.port.js'
import type { DateRange, HierarchyFilter, Period } from '../application/ports/read-model.port.js'
import type { AccessDenied, DeveloperActor } from '../application/read/actor.js'
import type { FunnelStageReport } from '../application/read/get-conversion-funnel.js'
import type { SessionMetrics } from '../application/read/get-developer-session-metrics.js'
import type { ScopeLevel } from '../application/read/get-funnel-scope.js'
import type { IngestConfig } from './config.js'
import { createContainer } from './container.js'
import type { StoreAdapters } from './store.factory.js'
import { TOKENS } from './tokens.js'

/** The read side, fail-closed: every call without a developer actor is `Left(accessDenied)`. */
export interface ReadSide {
  /** Sessions that viewed the actor's property objects in the period (spec §8). */
  sessionMetrics(actor: DeveloperActor | null | undefined, period: Period): Promise<E.Either<AccessDenied, SessionMetrics>>
  /** Funnel stages counted independently over the days; a lagging stage is marked preliminary. */
  conversionFunnel(actor: DeveloperActor | null | undefined, range: DateRange, filter?: HierarchyFilter): Promise<E.Either<AccessDenied, readonly FunnelStageReport[]>>
  /** The names of the funnel's developer and of each level its filter narrows to. */
  funnelScope(actor: DeveloperActor | null | undefined, filter?: HierarchyFilter): Promise<E.Either<AccessDenied, readonly ScopeLevel[]>>
}

export const readSideOf = (container: Container): ReadSide => ({
  sessionMetrics: container.get(TOKENS.GetSessionMetrics),
  conversionFunnel: container.get(TOKENS.GetConversionFunnel),
  funnelScope: container.get(TOKENS.GetFunnelScope),
})

/**
 * The read side alone over the configured store, ingesting nothing: what the primary of
 * `start --workers N` serves the read API from. The store connects on the first read.
 */
export const createReadSide = (config: IngestConfig, logger: Logger): { readonly read: ReadSide; close(): Promise<void> } => {
  const container = createContainer(config, { logger })
  return { read: readSideOf(container), close: () => container.get<StoreAdapters>(TOKENS.StoreAdapters).close() }
}
