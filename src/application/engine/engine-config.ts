import type { BackoffPolicy } from './backoff.js'

export interface EngineConfig {
  /** Flush when this many records are pending (≤ 1000 rows per insert). */
  readonly maxBatchRows: number
  /** Flush a non-empty batch at the latest after this long. */
  readonly flushIntervalMs: number
  /** Retry of a failed insert or publish: 1 s → 60 s by default. */
  readonly sinkBackoff: BackoffPolicy
  /**
   * Late dimension: parking attempts before the dead letter, the delay before each, and how many
   * parked copies that are not due yet may wait in memory (beyond it the retry topic is paused).
   */
  readonly parking: { readonly maxAttempts: number; readonly backoff: BackoffPolicy; readonly maxInMemory?: number }
  /** Sealed batches whose inserts may run at once (commits stay in order); 1 = one at a time. */
  readonly flushesInFlight?: number
}

export const DEFAULT_FLUSHES_IN_FLIGHT = 3

export const DEFAULT_PARKING_MAX_IN_MEMORY = 10_000

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  maxBatchRows: 1000,
  flushIntervalMs: 5000,
  sinkBackoff: { initialMs: 1000, maxMs: 60_000 },
  parking: { maxAttempts: 8, backoff: { initialMs: 5000, maxMs: 300_000 }, maxInMemory: DEFAULT_PARKING_MAX_IN_MEMORY },
}

export interface EngineTopics {
  readonly source: string
  readonly deadLetter: string
  readonly retry: string
}

/** Spec §2 defaults: `<source topic>.dlq` and `<consumer group>.retry`. */
export const defaultTopics = (source: string, groupId: string): EngineTopics => ({
  source,
  deadLetter: `${source}.dlq`,
  retry: `${groupId}.retry`,
})
