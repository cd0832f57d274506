import { UNKNOWN_VIEW_SOURCE } from '../domain/view-source.js'
import type { IngestConfig } from './ingest-config.js'
import { redactUrl } from './security-config.js'

/**
 * One rule per setting, checked on the typed value: the environment path converts its strings
 * and then applies these, a host's `createDevStatsIngest({ config })` applies the same ones to
 * what it passed. A problem says what is wanted and shows the value, never a secret.
 */
export interface SettingRule {
  /** Where a host sets it: `config.<path>`. */
  readonly path: string
  /** The environment variable. */
  readonly env: string
  readonly problem: (c: IngestConfig) => string | undefined
}

const shown = (v: unknown): string => JSON.stringify(v) ?? String(v)

const rule = <T>(path: string, env: string, get: (c: IngestConfig) => T, check: (v: T) => string | undefined): SettingRule => ({
  path,
  env,
  problem: (c) => check(get(c)),
})

const oneOf = (allowed: readonly string[]) => (v: unknown) => (allowed.includes(v as string) ? undefined : `must be one of ${allowed.join('|')}, got ${shown(v)}`)

const positive = (v: unknown) => (Number.isSafeInteger(v) && (v as number) > 0 ? undefined : `must be a positive integer, got ${shown(v)}`)

const wholeUpTo = (max: number, what: string) => (v: unknown) =>
  Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) <= max ? undefined : `must be ${what}, got ${shown(v)}`

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/
const identifier = (v: unknown) => (typeof v === 'string' && IDENTIFIER.test(v) ? undefined : `must be an identifier [A-Za-z_][A-Za-z0-9_]*, got ${shown(v)}`)

const HOST_PORT = /^[A-Za-z0-9.\-_[\]:]+:\d{1,5}$/
const hostPorts = (v: unknown) =>
  Array.isArray(v) && v.length > 0 && v.every((s) => typeof s === 'string' && HOST_PORT.test(s) && Number(s.split(':').at(-1)) <= 65535)
    ? undefined
    : `must list host:port pairs (at least one), got ${shown(v)}`

/** A ClickHouse URL: http(s), and the user and password are settings of their own (never in a URL that logs and errors print). */
const clickhouseUrl = (v: unknown) => {
  const url = typeof v === 'string' && URL.canParse(v) ? new URL(v) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) return `must be an http(s) URL, got ${shown(typeof v === 'string' ? redactUrl(v) : v)}`
  if (url.username || url.password) return 'must not carry credentials: set the user and password apart (clickhouse.user and clickhouse.password, DEV_STATS_CLICKHOUSE_USER and DEV_STATS_CLICKHOUSE_PASSWORD(_FILE))'
  return undefined
}

const VIEW_SOURCE = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/
const viewSources = (v: unknown) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string' && VIEW_SOURCE.test(s) && s !== UNKNOWN_VIEW_SOURCE)
    ? undefined
    : `must list names [A-Za-z][A-Za-z0-9_-]* other than ${UNKNOWN_VIEW_SOURCE}, got ${shown(v)}`

export const SETTING_RULES: readonly SettingRule[] = [
  rule('broker', 'DEV_STATS_BROKER', (c) => c.broker, oneOf(['memory', 'kafkajs', 'confluent'])),
  rule('store', 'DEV_STATS_STORE', (c) => c.store, oneOf(['memory', 'clickhouse', 'embedded'])),
  rule('logLevel', 'DEV_STATS_LOG_LEVEL', (c) => c.logLevel, oneOf(['trace', 'debug', 'info', 'warn', 'error', 'silent'])),
  rule('kafka.brokers', 'DEV_STATS_KAFKA_BROKERS', (c) => c.kafka.brokers, hostPorts),
  rule('kafka.clientId', 'DEV_STATS_KAFKA_CLIENT_ID', (c) => c.kafka.clientId, (v) =>
    typeof v === 'string' && /^[A-Za-z0-9._-]{1,249}$/.test(v) ? undefined : `must be 1-249 characters of [A-Za-z0-9._-], got ${shown(v)}`),
  rule('clickhouse.url', 'DEV_STATS_CLICKHOUSE_URL', (c) => c.clickhouse.url, clickhouseUrl),
  rule('clickhouse.database', 'DEV_STATS_CLICKHOUSE_DATABASE', (c) => c.clickhouse.database, identifier),
  rule('clickhouse.requestTimeoutMs', 'DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS', (c) => c.clickhouse.requestTimeoutMs, (v) =>
    Number.isSafeInteger(v) && (v as number) >= 1000 && (v as number) <= 3_600_000 ? undefined : `must be 1000-3600000 ms, got ${shown(v)}`),
  rule('clickhouse.cluster', 'DEV_STATS_CLICKHOUSE_CLUSTER', (c) => c.clickhouse.cluster, (v) => (v === undefined ? undefined : identifier(v))),
  rule('viewSources', 'DEV_STATS_VIEW_SOURCES', (c) => c.viewSources, viewSources),
  rule('engine.maxBatchRows', 'DEV_STATS_BATCH_MAX_ROWS', (c) => c.engine.maxBatchRows, positive),
  rule('engine.flushIntervalMs', 'DEV_STATS_FLUSH_INTERVAL_MS', (c) => c.engine.flushIntervalMs, positive),
  rule('engine.slowBatchFlushMs', 'DEV_STATS_FLUSH_SLOW_BATCH_MS', (c) => c.engine.slowBatchFlushMs, (v) => (v === undefined ? undefined : wholeUpTo(3_600_000, '0-3600000 ms, 0 for never early')(v))),
  rule('engine.flushesInFlight', 'DEV_STATS_FLUSHES_IN_FLIGHT', (c) => c.engine.flushesInFlight, positive),
  rule('engine.sinkBackoff.initialMs', 'DEV_STATS_SINK_BACKOFF_INITIAL_MS', (c) => c.engine.sinkBackoff.initialMs, positive),
  rule('engine.sinkBackoff.maxMs', 'DEV_STATS_SINK_BACKOFF_MAX_MS', (c) => c.engine.sinkBackoff, (b) =>
    positive(b.maxMs) ?? (b.maxMs >= b.initialMs ? undefined : `must not be below the initial backoff (${b.initialMs}), got ${b.maxMs}`)),
  rule('engine.parking.maxAttempts', 'DEV_STATS_PARKING_MAX_ATTEMPTS', (c) => c.engine.parking.maxAttempts, positive),
  rule('engine.parking.backoff.initialMs', 'DEV_STATS_PARKING_BACKOFF_INITIAL_MS', (c) => c.engine.parking.backoff.initialMs, positive),
  rule('engine.parking.backoff.maxMs', 'DEV_STATS_PARKING_BACKOFF_MAX_MS', (c) => c.engine.parking.backoff.maxMs, positive),
  rule('engine.parking.maxInMemory', 'DEV_STATS_PARKING_MAX_IN_MEMORY', (c) => c.engine.parking.maxInMemory, positive),
  rule('engine.parking.gapMaxWaitMs', 'DEV_STATS_PARKING_GAP_MAX_WAIT_MS', (c) => c.engine.parking.gapMaxWaitMs, positive),
  rule('http.host', 'DEV_STATS_HTTP_HOST', (c) => c.http.host, (v) =>
    typeof v === 'string' && /^[A-Za-z0-9.\-:]{1,253}$/.test(v) ? undefined : `must be a host name or IP address, got ${shown(v)}`),
  rule('http.port', 'DEV_STATS_HTTP_PORT', (c) => c.http.port, wholeUpTo(65535, 'a port 1-65535 or 0 (off)')),
  rule('http.readyMaxRetrySeconds', 'DEV_STATS_READY_MAX_RETRY_SECONDS', (c) => c.http.readyMaxRetrySeconds, positive),
  rule('lagIntervalMs', 'DEV_STATS_LAG_INTERVAL_MS', (c) => c.lagIntervalMs, positive),
  rule('readCache.maxEntries', 'DEV_STATS_READ_CACHE_ENTRIES', (c) => c.readCache.maxEntries, wholeUpTo(Number.MAX_SAFE_INTEGER, 'a whole number, 0 for none')),
  rule('readCache.maxStaleSeconds', 'DEV_STATS_READ_CACHE_MAX_STALE_SECONDS', (c) => c.readCache.maxStaleSeconds, wholeUpTo(300, '0-300 seconds')),
  rule('dimensionCache.maxEntries', 'DEV_STATS_DIMENSION_CACHE_ENTRIES', (c) => c.dimensionCache.maxEntries, wholeUpTo(1_000_000, 'a whole number up to 1000000, 0 for none')),
  rule('dimensionCache.maxAgeSeconds', 'DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS', (c) => c.dimensionCache.maxAgeSeconds, wholeUpTo(300, '0-300 seconds')),
  rule('dimensionFlushIntervalMs', 'DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS', (c) => c.dimensionFlushIntervalMs, (v) => (Number.isSafeInteger(v) && (v as number) >= 10 && (v as number) <= 3_600_000 ? undefined : `must be 10-3600000 ms, got ${shown(v)}`)),
  rule('catchUp.maxRows', 'DEV_STATS_CATCHUP_MAX_ROWS', (c) => c.catchUp.maxRows, wholeUpTo(1_000_000, 'a whole number up to 1000000 (at most the batch size: never grows)')),
  rule('catchUp.maxBytes', 'DEV_STATS_CATCHUP_MAX_BYTES', (c) => c.catchUp.maxBytes, (v) => (Number.isSafeInteger(v) && (v as number) >= 1_048_576 && (v as number) <= 268_435_456 ? undefined : `must be 1048576-268435456 bytes (1-256 MiB), got ${shown(v)}`)),
  rule('memoryBudgetMb', 'DEV_STATS_MEMORY_BUDGET_MB', (c) => c, (c) =>
    Number.isSafeInteger(c.memoryBudgetMb) && c.memoryBudgetMb * 1_048_576 >= c.catchUp.maxBytes && c.memoryBudgetMb <= 65_536
      ? undefined
      : `must be whole MiB, at least one batch of DEV_STATS_CATCHUP_MAX_BYTES (${Math.ceil(c.catchUp.maxBytes / 1_048_576)} MiB) and at most 65536, got ${shown(c.memoryBudgetMb)}`),
  rule('servingLatenessDays', 'DEV_STATS_SERVING_LATENESS_DAYS', (c) => c.servingLatenessDays, (v) =>
    Number.isSafeInteger(v) && (v as number) >= 1 && (v as number) <= 3650 ? undefined : `must be 1-3650 days, got ${shown(v)}`),
  rule('servingReconcileMinutes', 'DEV_STATS_SERVING_RECONCILE_MINUTES', (c) => c.servingReconcileMinutes, wholeUpTo(1440, '0-1440 minutes, 0 for never')),
  rule('readQueries.maxConcurrent', 'DEV_STATS_READ_MAX_CONCURRENT_QUERIES', (c) => c.readQueries.maxConcurrent, positive),
  rule('readQueries.maxQueued', 'DEV_STATS_READ_MAX_QUEUED_QUERIES', (c) => c.readQueries.maxQueued, wholeUpTo(100_000, 'a whole number up to 100000, 0 for no queue')),
  rule('readQueries.timeoutSeconds', 'DEV_STATS_READ_QUERY_TIMEOUT_SECONDS', (c) => c.readQueries.timeoutSeconds, wholeUpTo(3600, '0-3600 seconds, 0 for no limit')),
]

/** Every broken rule of `config`, each with its problem. */
export const settingProblems = (config: IngestConfig): { readonly rule: SettingRule; readonly problem: string }[] =>
  SETTING_RULES.flatMap((r) => {
    const problem = r.problem(config)
    return problem === undefined ? [] : [{ rule: r, problem }]
  })
