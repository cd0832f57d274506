import type { ConsumerOverrides } from '../application/consumers/consumer-topics.js'
import type { EngineConfig } from '../application/engine/engine-config.js'
import type { KafkaSecurity } from '../adapters/kafka/shared/kafka-security.js'

/** Environment settings; every value is validated and an invalid one names itself at start-up. */
export interface IngestConfig {
  readonly broker: 'memory' | 'kafkajs' | 'confluent'
  readonly kafka: { readonly brokers: readonly string[]; readonly clientId: string; readonly security: KafkaSecurity }
  readonly store: 'memory' | 'clickhouse' | 'embedded'
  /**
   * DEV_STATS_STORE=clickhouse: a ClickHouse server over HTTP(S); `ca` is the PEM text of
   * DEV_STATS_CLICKHOUSE_CA_FILE; `requestTimeoutMs` (DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS) ends a
   * request whose connection carries nothing for that long (a silent server: the insert is retried).
   */
  readonly clickhouse: {
    readonly url: string; readonly user: string; readonly password: string; readonly database: string; readonly cluster?: string; readonly ca?: string
    readonly requestTimeoutMs: number
  }
  /** DEV_STATS_STORE=embedded: ClickHouse in-process (chdb) with its own data directory. */
  readonly embedded: { readonly path: string }
  readonly funnelEnabled: boolean
  readonly logLevel: string
  readonly engine: EngineConfig
  /** Per registered consumer (by key): DEV_STATS_TOPIC_<key> / DEV_STATS_GROUP_<key>. */
  readonly topics: ConsumerOverrides
  /** DEV_STATS_VIEW_SOURCES: the ViewSource values classified as known (others: Unknown, raw value kept). */
  readonly viewSources: readonly string[]
  /** `npm start`'s /metrics and /health endpoints; port 0 = no HTTP server. */
  readonly http: { readonly host: string; readonly port: number; readonly readyMaxRetrySeconds: number }
  /**
   * DEV_STATS_LAG_INTERVAL_MS: how often every consumer's lag is read from the broker, for the lag
   * gauge and for the dimension consumers' progress that parked records wait on (with or without HTTP).
   */
  readonly lagIntervalMs: number
  /**
   * DEV_STATS_READ_CACHE_ENTRIES: read answers kept while the store's data behind them is unchanged
   * (0 = no cache); DEV_STATS_READ_CACHE_MAX_STALE_SECONDS: how long an answer is served without
   * asking the store again (0 = every read asks, never stale).
   */
  readonly readCache: { readonly maxEntries: number; readonly maxStaleSeconds: number }
  /**
   * Reads that reach the store (the cache's misses), per instance: at most `maxConcurrent` at once,
   * `maxQueued` more waiting, any further one refused (ReadsOverloaded: the read API's 503); the
   * store ends one running longer than `timeoutSeconds` (ReadTimedOut; 0: no limit).
   */
  readonly readQueries: { readonly maxConcurrent: number; readonly maxQueued: number; readonly timeoutSeconds: number }
  /**
   * A consumer far behind its source topic grows its batches up to `maxRows` records and `maxBytes`
   * of record values, each inserted whole (fewer, larger parts), and returns to `engine.maxBatchRows`
   * once caught up; `maxRows` at or below `engine.maxBatchRows`: never grows.
   */
  readonly catchUp: { readonly maxRows: number; readonly maxBytes: number }
  /**
   * DEV_STATS_DIMENSION_CACHE_ENTRIES: property-object paths kept in the process (0 = every lookup
   * asks the store); DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS: how long a path confirmed by the
   * store is used without asking again (0 = no cache). Versions this process stores replace theirs at once.
   */
  readonly dimensionCache: { readonly maxEntries: number; readonly maxAgeSeconds: number }
  /** DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS: the flush interval of the consumers that write the looked-up dimension (dim_property_object), when shorter than `engine.flushIntervalMs`. */
  readonly dimensionFlushIntervalMs: number
  /**
   * DEV_STATS_MEMORY_BUDGET_MB: the records this process holds (accepted and not yet committed,
   * parked copies waiting), over every consumer; a consumer that finds it spent pauses its
   * partitions until commits brought it under half (above the parked copies; the property-object
   * consumer never pauses). At least one catch-up batch (`catchUp.maxBytes`).
   */
  readonly memoryBudgetMb: number
  /**
   * DEV_STATS_SERVING_LATENESS_DAYS: how late a session or view fact may arrive (ingestion − EventTime)
   * and still be served exactly; the link tables keep this plus 33 days, older months are dropped.
   */
  readonly servingLatenessDays: number
  /**
   * DEV_STATS_SERVING_RECONCILE_MINUTES: every this many minutes the serving step is re-run over the
   * last three UTC days and one older day of the lateness window in turn, and what the serving
   * tables miss is written (0: never).
   */
  readonly servingReconcileMinutes: number
}
