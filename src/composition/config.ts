import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { CONSUMERS } from '../application/consumers/consumer-registry.js'
import type { ConsumerOverrides } from '../application/consumers/consumer-topics.js'
import { DEFAULT_FLUSHES_IN_FLIGHT, DEFAULT_GAP_MAX_WAIT_MS, DEFAULT_PARKING_MAX_IN_MEMORY, type EngineConfig } from '../application/engine/engine-config.js'
import { DEFAULT_VIEW_SOURCES, UNKNOWN_VIEW_SOURCE } from '../domain/view-source.js'
import type { KafkaSecurity } from '../adapters/kafka/kafka-security.js'
import { ConfigError } from './config-error.js'
import { clickhouseSecrets, kafkaSecurity, redactUrl } from './security-config.js'

/** Environment settings; every value is validated and an invalid one names itself at start-up. */
export interface IngestConfig {
  readonly broker: 'memory' | 'kafkajs' | 'confluent'
  readonly kafka: { readonly brokers: readonly string[]; readonly clientId: string; readonly security: KafkaSecurity }
  readonly store: 'memory' | 'clickhouse' | 'embedded'
  /** DEV_STATS_STORE=clickhouse: a ClickHouse server over HTTP(S); `ca` is the PEM text of DEV_STATS_CLICKHOUSE_CA_FILE. */
  readonly clickhouse: { readonly url: string; readonly user: string; readonly password: string; readonly database: string; readonly cluster?: string; readonly ca?: string }
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
}

/** Suffix of the DEV_STATS_TOPIC_* / DEV_STATS_GROUP_* overrides of each consumer (its registry key). */
export type ConsumerKey = string

export { ConfigError }

export type Env = Readonly<Record<string, string | undefined>>

const oneOf = <T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T => {
  const value = env[name] ?? fallback
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `must be one of ${allowed.join('|')}, got "${value}"`)
  return value as T
}

const PositiveInt = t.refinement(t.Int, (n) => n > 0, 'PositiveInt')
const IntFromString = new t.Type<number, string, unknown>(
  'IntFromString',
  PositiveInt.is,
  (u, c) => {
    const n = typeof u === 'string' && /^\d+$/.test(u.trim()) ? Number(u) : Number.NaN
    return PositiveInt.is(n) ? t.success(n) : t.failure(u, c, 'expected a positive integer')
  },
  String,
)

const int = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const decoded = IntFromString.decode(raw)
  if (E.isLeft(decoded)) throw new ConfigError(name, `must be a positive integer, got "${raw}"`)
  return decoded.right
}

const bool = (env: Env, name: string, fallback: boolean): boolean => {
  const raw = env[name]?.toLowerCase()
  if (raw === undefined || raw === '') return fallback
  if (['true', '1', 'on', 'yes'].includes(raw)) return true
  if (['false', '0', 'off', 'no'].includes(raw)) return false
  throw new ConfigError(name, `must be true or false, got "${env[name]}"`)
}

/** A comma list of host:port pairs, e.g. `kafka-1:9092,kafka-2:9092`. */
const hostPorts = (env: Env, name: string, fallback: string): string[] => {
  const raw = env[name] || fallback
  const list = raw.split(',').map((s) => s.trim()).filter((s) => s !== '')
  const bad = list.filter((s) => !/^[A-Za-z0-9.\-_\[\]:]+:\d{1,5}$/.test(s) || Number(s.split(':').at(-1)) > 65535)
  if (list.length === 0 || bad.length > 0) throw new ConfigError(name, `must be a comma list of host:port, got "${raw}"`)
  return list
}

const clientId = (env: Env, name: string, fallback: string): string => {
  const raw = env[name] || fallback
  if (!/^[A-Za-z0-9._-]{1,249}$/.test(raw)) throw new ConfigError(name, `must be 1-249 characters of [A-Za-z0-9._-], got "${raw}"`)
  return raw
}

const httpUrl = (env: Env, name: string, fallback: string): string => {
  const raw = env[name] || fallback
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new ConfigError(name, `must be an http(s) URL, got "${redactUrl(raw)}"`)
  if (url.username || url.password) throw new ConfigError(name, 'must not carry credentials: use DEV_STATS_CLICKHOUSE_USER and DEV_STATS_CLICKHOUSE_PASSWORD(_FILE)')
  return raw
}

/** A database name: it is part of SQL text, so only a plain identifier is accepted. */
const identifier = (env: Env, name: string, fallback: string): string => {
  const raw = env[name] || fallback
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(raw)) throw new ConfigError(name, `must be an identifier [A-Za-z_][A-Za-z0-9_]*, got "${raw}"`)
  return raw
}

/** A count where 0 means none (off). */
const count = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!Number.isSafeInteger(n)) throw new ConfigError(name, `must be a whole number, 0 for none, got "${raw}"`)
  return n
}

/** Seconds a read answer may be old: 0 (never) to 300, the funnel's freshness SLA. */
const staleness = (env: Env, name: string, fallback: number): number => {
  const n = count(env, name, fallback)
  if (n > 300) throw new ConfigError(name, `must be 0-300 seconds, got "${env[name]}"`)
  return n
}

/** A TCP port; 0 turns the listener off. */
const port = (env: Env, name: string, fallback: number): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  const n = /^\d{1,5}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!(n >= 0 && n <= 65535)) throw new ConfigError(name, `must be a port 1-65535 or 0 (off), got "${raw}"`)
  return n
}

const host = (env: Env, name: string, fallback: string): string => {
  const raw = env[name] || fallback
  if (!/^[A-Za-z0-9.\-:]{1,253}$/.test(raw)) throw new ConfigError(name, `must be a host name or IP address, got "${raw}"`)
  return raw
}

/** A comma list of names such as `Catalog,Search`; `Unknown` is the classification of the others, never a known value. */
const viewSources = (env: Env, name: string, fallback: readonly string[]): readonly string[] => {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const list = raw.split(',').map((s) => s.trim())
  const bad = list.filter((s) => !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(s) || s === UNKNOWN_VIEW_SOURCE)
  if (bad.length > 0) throw new ConfigError(name, `must be a comma list of names [A-Za-z][A-Za-z0-9_-]* other than ${UNKNOWN_VIEW_SOURCE}, got "${raw}"`)
  return [...new Set(list)]
}

export const loadConfig = (env: Env = process.env): IngestConfig => {
  const initial = int(env, 'DEV_STATS_SINK_BACKOFF_INITIAL_MS', 1000)
  const max = int(env, 'DEV_STATS_SINK_BACKOFF_MAX_MS', 60_000)
  if (max < initial) throw new ConfigError('DEV_STATS_SINK_BACKOFF_MAX_MS', 'must not be below DEV_STATS_SINK_BACKOFF_INITIAL_MS')
  return {
    broker: oneOf(env, 'DEV_STATS_BROKER', ['memory', 'kafkajs', 'confluent'], 'memory'),
    kafka: {
      brokers: hostPorts(env, 'DEV_STATS_KAFKA_BROKERS', '127.0.0.1:19092'),
      clientId: clientId(env, 'DEV_STATS_KAFKA_CLIENT_ID', 'dev-stats-ingest'),
      security: kafkaSecurity(env),
    },
    store: oneOf(env, 'DEV_STATS_STORE', ['memory', 'clickhouse', 'embedded'], 'memory'),
    clickhouse: {
      url: httpUrl(env, 'DEV_STATS_CLICKHOUSE_URL', 'http://127.0.0.1:18123'),
      user: env.DEV_STATS_CLICKHOUSE_USER || 'default',
      ...clickhouseSecrets(env),
      database: identifier(env, 'DEV_STATS_CLICKHOUSE_DATABASE', 'pin_dev_stats'),
      // Unset or empty: a single server. Set: the cluster's name (docs/clickhouse.md, cluster mode).
      ...(env.DEV_STATS_CLICKHOUSE_CLUSTER ? { cluster: identifier(env, 'DEV_STATS_CLICKHOUSE_CLUSTER', '') } : {}),
    },
    embedded: { path: env.DEV_STATS_EMBEDDED_PATH || '.infra/embedded-clickhouse' },
    // the feature flag dev-stats.funnel.enabled, off by default
    funnelEnabled: bool(env, 'DEV_STATS_FUNNEL_ENABLED', false),
    viewSources: viewSources(env, 'DEV_STATS_VIEW_SOURCES', DEFAULT_VIEW_SOURCES),
    logLevel: oneOf(env, 'DEV_STATS_LOG_LEVEL', ['trace', 'debug', 'info', 'warn', 'error', 'silent'], 'info'),
    engine: {
      maxBatchRows: int(env, 'DEV_STATS_BATCH_MAX_ROWS', 1000),
      flushIntervalMs: int(env, 'DEV_STATS_FLUSH_INTERVAL_MS', 5000),
      flushesInFlight: int(env, 'DEV_STATS_FLUSHES_IN_FLIGHT', DEFAULT_FLUSHES_IN_FLIGHT),
      sinkBackoff: { initialMs: initial, maxMs: max },
      parking: {
        maxAttempts: int(env, 'DEV_STATS_PARKING_MAX_ATTEMPTS', 8),
        backoff: {
          initialMs: int(env, 'DEV_STATS_PARKING_BACKOFF_INITIAL_MS', 5000),
          maxMs: int(env, 'DEV_STATS_PARKING_BACKOFF_MAX_MS', 300_000),
        },
        maxInMemory: int(env, 'DEV_STATS_PARKING_MAX_IN_MEMORY', DEFAULT_PARKING_MAX_IN_MEMORY),
        gapMaxWaitMs: int(env, 'DEV_STATS_PARKING_GAP_MAX_WAIT_MS', DEFAULT_GAP_MAX_WAIT_MS),
      },
    },
    topics: Object.fromEntries(
      CONSUMERS.map(({ key: k }) => [k, { topic: env[`DEV_STATS_TOPIC_${k}`] || undefined, group: env[`DEV_STATS_GROUP_${k}`] || undefined }]),
    ),
    http: {
      host: host(env, 'DEV_STATS_HTTP_HOST', '0.0.0.0'),
      port: port(env, 'DEV_STATS_HTTP_PORT', 9464),
      readyMaxRetrySeconds: int(env, 'DEV_STATS_READY_MAX_RETRY_SECONDS', 120),
    },
    lagIntervalMs: int(env, 'DEV_STATS_LAG_INTERVAL_MS', 15_000),
    readCache: {
      maxEntries: count(env, 'DEV_STATS_READ_CACHE_ENTRIES', 10_000),
      maxStaleSeconds: staleness(env, 'DEV_STATS_READ_CACHE_MAX_STALE_SECONDS', 0),
    },
  }
}
