import { CONSUMERS } from '../application/consumers/consumer-registry.js'
import { DEFAULT_FLUSHES_IN_FLIGHT, DEFAULT_GAP_MAX_WAIT_MS, DEFAULT_PARKING_MAX_IN_MEMORY } from '../application/engine/engine-config.js'
import { DEFAULT_VIEW_SOURCES } from '../domain/view-source.js'
import { DEFAULT_SERVING_LATENESS_DAYS } from '../domain/serving-window.js'
import { DEFAULT_CLICKHOUSE_REQUEST_TIMEOUT_MS } from '../adapters/clickhouse/server-session.factory.js'
import { ConfigError } from './config-error.js'
import type { IngestConfig } from './ingest-config.js'
import { clickhouseSecrets, kafkaSecurity } from './security-config.js'
import { settingProblems } from './setting-rules.js'
import { unknownSettingsError, unknownVariables } from './unknown-settings.js'

export type { IngestConfig }

/**
 * Record bytes held at most, by default: with the heap of `npm start` (160 MB old space, 16 MB
 * semi-spaces), the clients' fetch buffers and the decoded rows, the process stays under 384 MB.
 */
export const DEFAULT_MEMORY_BUDGET_MB = 48

/** Suffix of the DEV_STATS_TOPIC_* / DEV_STATS_GROUP_* overrides of each consumer (its registry key). */
export type ConsumerKey = string

export { ConfigError }

export type Env = Readonly<Record<string, string | undefined>>

// The environment's strings become typed values here; what a value must be is checked by
// setting-rules.ts, the same rules a host's config passes (config-input.ts).

const text = (env: Env, name: string, fallback: string): string => env[name] || fallback

/** A whole number; blank: the default. */
const whole = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  if (!/^\d{1,15}$/.test(raw.trim())) throw new ConfigError(name, `must be a whole number, got "${raw}"`)
  return Number(raw)
}

const bool = (env: Env, name: string, fallback: boolean): boolean => {
  const raw = env[name]?.toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['true', '1', 'on', 'yes'].includes(raw)) return true
  if (['false', '0', 'off', 'no'].includes(raw)) return false
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`)
}

/** A comma list (`kafka-1:9092,kafka-2:9092`, `Catalog,Search`); blank: the default. */
const list = (env: Env, name: string, fallback: readonly string[]): readonly string[] => {
  const raw = env[name]
  return raw === undefined || raw.trim() === '' ? fallback : [...new Set(raw.split(',').map((s) => s.trim()))]
}

/** The environment's strings as typed values, not yet checked against the setting rules; ConfigError for a value that is not of its type. */
export const convertEnv = (env: Env): IngestConfig => ({
  broker: text(env, 'DEV_STATS_BROKER', 'memory') as IngestConfig['broker'],
  kafka: {
    brokers: list(env, 'DEV_STATS_KAFKA_BROKERS', ['127.0.0.1:19092']),
    clientId: text(env, 'DEV_STATS_KAFKA_CLIENT_ID', 'dev-stats-ingest'),
    security: kafkaSecurity(env),
  },
  store: text(env, 'DEV_STATS_STORE', 'memory') as IngestConfig['store'],
  clickhouse: {
    url: text(env, 'DEV_STATS_CLICKHOUSE_URL', 'http://127.0.0.1:18123'),
    user: env.DEV_STATS_CLICKHOUSE_USER || 'default',
    ...clickhouseSecrets(env),
    database: text(env, 'DEV_STATS_CLICKHOUSE_DATABASE', 'pin_dev_stats'),
    requestTimeoutMs: whole(env, 'DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS', DEFAULT_CLICKHOUSE_REQUEST_TIMEOUT_MS),
    // Unset or empty: a single server. Set: the cluster's name (docs/clickhouse.md, cluster mode).
    ...(env.DEV_STATS_CLICKHOUSE_CLUSTER ? { cluster: env.DEV_STATS_CLICKHOUSE_CLUSTER } : {}),
  },
  embedded: { path: env.DEV_STATS_EMBEDDED_PATH || '.infra/embedded-clickhouse' },
  // the feature flag dev-stats.funnel.enabled, off by default
  funnelEnabled: bool(env, 'DEV_STATS_FUNNEL_ENABLED', false),
  viewSources: list(env, 'DEV_STATS_VIEW_SOURCES', DEFAULT_VIEW_SOURCES),
  logLevel: text(env, 'DEV_STATS_LOG_LEVEL', 'info'),
  engine: {
    maxBatchRows: whole(env, 'DEV_STATS_BATCH_MAX_ROWS', 1000),
    flushIntervalMs: whole(env, 'DEV_STATS_FLUSH_INTERVAL_MS', 5000),
    slowBatchFlushMs: whole(env, 'DEV_STATS_FLUSH_SLOW_BATCH_MS', 1000),
    flushesInFlight: whole(env, 'DEV_STATS_FLUSHES_IN_FLIGHT', DEFAULT_FLUSHES_IN_FLIGHT),
    sinkBackoff: { initialMs: whole(env, 'DEV_STATS_SINK_BACKOFF_INITIAL_MS', 1000), maxMs: whole(env, 'DEV_STATS_SINK_BACKOFF_MAX_MS', 60_000) },
    parking: {
      maxAttempts: whole(env, 'DEV_STATS_PARKING_MAX_ATTEMPTS', 10),
      backoff: {
        initialMs: whole(env, 'DEV_STATS_PARKING_BACKOFF_INITIAL_MS', 1000),
        maxMs: whole(env, 'DEV_STATS_PARKING_BACKOFF_MAX_MS', 300_000),
      },
      maxInMemory: whole(env, 'DEV_STATS_PARKING_MAX_IN_MEMORY', DEFAULT_PARKING_MAX_IN_MEMORY),
      gapMaxWaitMs: whole(env, 'DEV_STATS_PARKING_GAP_MAX_WAIT_MS', DEFAULT_GAP_MAX_WAIT_MS),
    },
  },
  topics: Object.fromEntries(
    CONSUMERS.map(({ key: k }) => [k, { topic: env[`DEV_STATS_TOPIC_${k}`] || undefined, group: env[`DEV_STATS_GROUP_${k}`] || undefined }]),
  ),
  http: {
    host: text(env, 'DEV_STATS_HTTP_HOST', '0.0.0.0'),
    port: whole(env, 'DEV_STATS_HTTP_PORT', 9464),
    readyMaxRetrySeconds: whole(env, 'DEV_STATS_READY_MAX_RETRY_SECONDS', 120),
  },
  lagIntervalMs: whole(env, 'DEV_STATS_LAG_INTERVAL_MS', 15_000),
  readCache: {
    maxEntries: whole(env, 'DEV_STATS_READ_CACHE_ENTRIES', 10_000),
    maxStaleSeconds: whole(env, 'DEV_STATS_READ_CACHE_MAX_STALE_SECONDS', 0),
  },
  catchUp: {
    maxRows: whole(env, 'DEV_STATS_CATCHUP_MAX_ROWS', 4_000),
    maxBytes: whole(env, 'DEV_STATS_CATCHUP_MAX_BYTES', 16 * 1024 * 1024),
  },
  dimensionCache: {
    maxEntries: whole(env, 'DEV_STATS_DIMENSION_CACHE_ENTRIES', 20_000),
    maxAgeSeconds: whole(env, 'DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS', 10),
  },
  dimensionFlushIntervalMs: whole(env, 'DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS', 500),
  memoryBudgetMb: whole(env, 'DEV_STATS_MEMORY_BUDGET_MB', DEFAULT_MEMORY_BUDGET_MB),
  servingLatenessDays: whole(env, 'DEV_STATS_SERVING_LATENESS_DAYS', DEFAULT_SERVING_LATENESS_DAYS),
  servingReconcileMinutes: whole(env, 'DEV_STATS_SERVING_RECONCILE_MINUTES', 60),
  readQueries: {
    maxConcurrent: whole(env, 'DEV_STATS_READ_MAX_CONCURRENT_QUERIES', 4),
    maxQueued: whole(env, 'DEV_STATS_READ_MAX_QUEUED_QUERIES', 64),
    timeoutSeconds: whole(env, 'DEV_STATS_READ_QUERY_TIMEOUT_SECONDS', 10),
  },
})

/** The configuration of `env`'s DEV_STATS_* variables; ConfigError for an unknown variable or an invalid value. */
export const loadConfig = (env: Env = process.env): IngestConfig => {
  const unknown = unknownSettingsError(unknownVariables(env))
  if (unknown) throw unknown
  const config = convertEnv(env)
  const [first, ...more] = settingProblems(config)
  if (first) throw new ConfigError(first.rule.env, [first.problem, ...more.map((p) => `${p.rule.env} ${p.problem}`)].join('; '))
  return config
}
