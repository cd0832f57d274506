import { ConfigError } from './config-error.js'
import { loadConfig, type IngestConfig } from './config.js'

/** Every field optional, at every depth; arrays are taken whole. */
export type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { readonly [K in keyof T]?: DeepPartial<T[K]> } : T

/**
 * The configuration a host passes: any subset of IngestConfig. What is left out takes the default
 * the environment variable of the same setting documents (README "Configuration"): e.g.
 * `{ broker: 'kafkajs', store: 'clickhouse', clickhouse: { url: 'http://ch:8123' } }`.
 */
export type IngestSettings = DeepPartial<IngestConfig>

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v)

const merge = (base: unknown, over: unknown): unknown => {
  if (over === undefined) return base
  if (!isPlainObject(base) || !isPlainObject(over)) return over
  const out: Record<string, unknown> = { ...base }
  for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v)
  return out
}

const ENUMS: readonly (readonly [string, (c: IngestConfig) => unknown, readonly string[]])[] = [
  ['broker', (c) => c.broker, ['memory', 'kafkajs', 'confluent']],
  ['store', (c) => c.store, ['memory', 'clickhouse', 'embedded']],
  ['logLevel', (c) => c.logLevel, ['trace', 'debug', 'info', 'warn', 'error', 'silent']],
]

const POSITIVE_INTS: readonly (readonly [string, (c: IngestConfig) => unknown])[] = [
  ['engine.maxBatchRows', (c) => c.engine.maxBatchRows],
  ['engine.flushIntervalMs', (c) => c.engine.flushIntervalMs],
  ['engine.flushesInFlight', (c) => c.engine.flushesInFlight],
  ['engine.sinkBackoff.initialMs', (c) => c.engine.sinkBackoff.initialMs],
  ['engine.sinkBackoff.maxMs', (c) => c.engine.sinkBackoff.maxMs],
  ['engine.parking.maxAttempts', (c) => c.engine.parking.maxAttempts],
  ['engine.parking.backoff.initialMs', (c) => c.engine.parking.backoff.initialMs],
  ['engine.parking.backoff.maxMs', (c) => c.engine.parking.backoff.maxMs],
  ['engine.parking.maxInMemory', (c) => c.engine.parking.maxInMemory],
  ['engine.parking.gapMaxWaitMs', (c) => c.engine.parking.gapMaxWaitMs],
  ['http.readyMaxRetrySeconds', (c) => c.http.readyMaxRetrySeconds],
  ['lagIntervalMs', (c) => c.lagIntervalMs],
]

/** Every invalid field, named by its path, in one ConfigError. */
const problemsOf = (c: IngestConfig): string[] => [
  ...ENUMS.filter(([, get, allowed]) => !allowed.includes(get(c) as string)).map(([path, get, allowed]) => `config.${path} must be one of ${allowed.join('|')}, got ${JSON.stringify(get(c))}`),
  ...POSITIVE_INTS.filter(([, get]) => !(Number.isSafeInteger(get(c)) && (get(c) as number) > 0)).map(([path, get]) => `config.${path} must be a positive integer, got ${JSON.stringify(get(c))}`),
  ...(Number.isSafeInteger(c.readCache.maxEntries) && c.readCache.maxEntries >= 0 ? [] : [`config.readCache.maxEntries must be a whole number (0: no cache), got ${JSON.stringify(c.readCache.maxEntries)}`]),
  ...(Number.isSafeInteger(c.readCache.maxStaleSeconds) && c.readCache.maxStaleSeconds >= 0 && c.readCache.maxStaleSeconds <= 300 ? [] : [`config.readCache.maxStaleSeconds must be 0-300, got ${JSON.stringify(c.readCache.maxStaleSeconds)}`]),
  ...(Array.isArray(c.kafka.brokers) && c.kafka.brokers.length > 0 ? [] : ['config.kafka.brokers must list at least one host:port']),
  ...(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(c.clickhouse.database) ? [] : [`config.clickhouse.database must be an identifier, got ${JSON.stringify(c.clickhouse.database)}`]),
  ...(c.engine.sinkBackoff.maxMs >= c.engine.sinkBackoff.initialMs ? [] : ['config.engine.sinkBackoff.maxMs must not be below initialMs']),
]

/** The defaults (those of an empty environment) with the host's settings over them, validated. */
export const resolveConfig = (settings: IngestSettings = {}): IngestConfig => {
  const config = merge(loadConfig({}), settings) as IngestConfig
  const problems = problemsOf(config)
  const [first, ...more] = problems
  if (first !== undefined) throw new ConfigError(first.split(' ')[0] as string, [first.slice(first.indexOf(' ') + 1), ...more].join('; '))
  return config
}
