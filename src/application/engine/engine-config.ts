import type { BackoffPolicy } from './backoff.js'

export interface EngineConfig {
  /** Flush when this many records are pending (≤ 1000 rows per insert). */
  readonly maxBatchRows: number
  /** Flush a non-empty batch at the latest after this long. */
  readonly flushIntervalMs: number
  /**
   * A batch this old that, at the rate it has filled so far, would not reach its row bound within
   * as long again is flushed (flush-due.ts): a low-rate consumer's records wait about this long, not
   * the whole interval, for one small insert per bound. Absent, 0 or not below the interval: never early.
   */
  readonly slowBatchFlushMs?: number
  /** Retry of a failed insert or publish: 1 s → 60 s by default. */
  readonly sinkBackoff: BackoffPolicy
  /**
   * Late dimension: parking attempts before the dead letter, the delay before each, and how many
   * parked copies that are not due yet may wait in memory (beyond it the retry topic is paused).
   * `gapMaxWaitMs`: how long past its window a spent copy waits for the dimension consumers'
   * progress (when a lag reader feeds it) before it is dead-lettered as an unproven gap.
   */
  readonly parking: { readonly maxAttempts: number; readonly backoff: BackoffPolicy; readonly maxInMemory?: number; readonly gapMaxWaitMs?: number }
  /** Sealed batches whose inserts may run at once (commits stay in order); 1 = one at a time. */
  readonly flushesInFlight?: number
  /**
   * A consumer far behind its source topic (more than CATCH_UP_AFTER_BATCHES default batches)
   * doubles its batches, one flush after another, up to `maxRows` rows and `maxBytes` of record
   * values, each inserted whole; back at maxBatchRows once it has caught up. Absent: never grows.
   */
  readonly catchUp?: { readonly maxRows: number; readonly maxBytes: number }
  /** Facts later than this (ingestion − EventTime) are counted as outside the serving assumptions; absent: DEFAULT_SERVING_LATENESS_DAYS. */
  readonly servingLatenessDays?: number
}

/** Behind by more than this many default batches: the consumer is catching up, freshness is lost already. */
export const CATCH_UP_AFTER_BATCHES = 8

export const DEFAULT_FLUSHES_IN_FLIGHT = 3

export const DEFAULT_PARKING_MAX_IN_MEMORY = 10_000

/** An hour: a dimension consumer's catch-up after an outage, well past the lag reads' 15 s. */
export const DEFAULT_GAP_MAX_WAIT_MS = 3_600_000

export const DEFAULT_ENGINE_CONFIG: EngineConfig = {
  maxBatchRows: 1000,
  flushIntervalMs: 5000,
  sinkBackoff: { initialMs: 1000, maxMs: 60_000 },
  parking: { maxAttempts: 10, backoff: { initialMs: 1000, maxMs: 300_000 }, maxInMemory: DEFAULT_PARKING_MAX_IN_MEMORY, gapMaxWaitMs: DEFAULT_GAP_MAX_WAIT_MS },
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
