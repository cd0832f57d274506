import { describe, expect, it } from 'vitest'
import { ConfigError, configFromEnv as loadConfig, type IngestSettings } from '../../../src/index.js'
import { resolveConfig } from '../../../src/composition/config-input.js'
import { SETTING_RULES } from '../../../src/composition/setting-rules.js'

// One table of invalid settings, refused the same way by the environment path (`npm start`) and
// by a host's `createDevStatsIngest({ config })`: each rule of setting-rules.ts at least once.
// (A value the environment cannot even convert, such as 1.5 for a count, is refused at conversion.)
const INVALID: readonly (readonly [env: string, value: string, host: IngestSettings])[] = [
  ['DEV_STATS_BROKER', 'rabbit', { broker: 'rabbit' as never }],
  ['DEV_STATS_STORE', 'postgres', { store: 'postgres' as never }],
  ['DEV_STATS_LOG_LEVEL', 'loud', { logLevel: 'loud' }],
  ['DEV_STATS_KAFKA_BROKERS', 'kafka-1', { kafka: { brokers: ['kafka-1'] } }],
  ['DEV_STATS_KAFKA_BROKERS', 'kafka-1:99999', { kafka: { brokers: ['kafka-1:99999'] } }],
  ['DEV_STATS_KAFKA_CLIENT_ID', 'a b', { kafka: { clientId: 'a b' } }],
  ['DEV_STATS_CLICKHOUSE_URL', 'ftp://ch:21', { clickhouse: { url: 'ftp://ch:21' } }],
  ['DEV_STATS_CLICKHOUSE_URL', 'http://user:s3cr3t-pw@ch:8123', { clickhouse: { url: 'http://user:s3cr3t-pw@ch:8123' } }],
  ['DEV_STATS_CLICKHOUSE_URL', 'http://:s3cr3t-pw@ch:8123', { clickhouse: { url: 'http://:s3cr3t-pw@ch:8123' } }],
  ['DEV_STATS_CLICKHOUSE_DATABASE', 'db; DROP TABLE x', { clickhouse: { database: 'db; DROP TABLE x' } }],
  ['DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS', '500', { clickhouse: { requestTimeoutMs: 500 } }],
  ['DEV_STATS_CLICKHOUSE_CLUSTER', 'my cluster', { clickhouse: { cluster: 'my cluster' } }],
  ['DEV_STATS_VIEW_SOURCES', 'Catalog,Unknown', { viewSources: ['Catalog', 'Unknown'] }],
  ['DEV_STATS_BATCH_MAX_ROWS', '0', { engine: { maxBatchRows: 0 } }],
  ['DEV_STATS_FLUSH_INTERVAL_MS', '0', { engine: { flushIntervalMs: 0 } }],
  ['DEV_STATS_FLUSH_SLOW_BATCH_MS', '3600001', { engine: { slowBatchFlushMs: 3_600_001 } }],
  ['DEV_STATS_FLUSHES_IN_FLIGHT', '0', { engine: { flushesInFlight: 0 } }],
  ['DEV_STATS_SINK_BACKOFF_INITIAL_MS', '0', { engine: { sinkBackoff: { initialMs: 0 } } }],
  ['DEV_STATS_SINK_BACKOFF_MAX_MS', '10', { engine: { sinkBackoff: { maxMs: 10 } } }],
  ['DEV_STATS_PARKING_MAX_ATTEMPTS', '0', { engine: { parking: { maxAttempts: 0 } } }],
  ['DEV_STATS_PARKING_BACKOFF_INITIAL_MS', '0', { engine: { parking: { backoff: { initialMs: 0 } } } }],
  ['DEV_STATS_PARKING_BACKOFF_MAX_MS', '0', { engine: { parking: { backoff: { maxMs: 0 } } } }],
  ['DEV_STATS_PARKING_MAX_IN_MEMORY', '0', { engine: { parking: { maxInMemory: 0 } } }],
  ['DEV_STATS_PARKING_GAP_MAX_WAIT_MS', '0', { engine: { parking: { gapMaxWaitMs: 0 } } }],
  ['DEV_STATS_HTTP_HOST', 'my host', { http: { host: 'my host' } }],
  ['DEV_STATS_HTTP_PORT', '70000', { http: { port: 70_000 } }],
  ['DEV_STATS_READY_MAX_RETRY_SECONDS', '0', { http: { readyMaxRetrySeconds: 0 } }],
  ['DEV_STATS_LAG_INTERVAL_MS', '0', { lagIntervalMs: 0 }],
  ['DEV_STATS_READ_CACHE_ENTRIES', '1.5', { readCache: { maxEntries: 1.5 } }],
  ['DEV_STATS_READ_CACHE_ENTRIES', '-1', { readCache: { maxEntries: -1 } }],
  ['DEV_STATS_READ_CACHE_MAX_STALE_SECONDS', '301', { readCache: { maxStaleSeconds: 301 } }],
  ['DEV_STATS_DIMENSION_CACHE_ENTRIES', '1000001', { dimensionCache: { maxEntries: 1_000_001 } }],
  ['DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS', '301', { dimensionCache: { maxAgeSeconds: 301 } }],
  ['DEV_STATS_DIMENSION_FLUSH_INTERVAL_MS', '5', { dimensionFlushIntervalMs: 5 }],
  ['DEV_STATS_CATCHUP_MAX_ROWS', '1000001', { catchUp: { maxRows: 1_000_001 } }],
  ['DEV_STATS_CATCHUP_MAX_BYTES', '1024', { catchUp: { maxBytes: 1024 } }],
  // issue 46.1: a budget that cannot hold one batch at DEV_STATS_CATCHUP_MAX_BYTES (16 MiB)
  ['DEV_STATS_MEMORY_BUDGET_MB', '8', { memoryBudgetMb: 8 }],
  ['DEV_STATS_SERVING_LATENESS_DAYS', '0', { servingLatenessDays: 0 }],
  ['DEV_STATS_SERVING_RECONCILE_MINUTES', '1441', { servingReconcileMinutes: 1441 }],
  ['DEV_STATS_READ_MAX_CONCURRENT_QUERIES', '0', { readQueries: { maxConcurrent: 0 } }],
  ['DEV_STATS_READ_MAX_QUEUED_QUERIES', '100001', { readQueries: { maxQueued: 100_001 } }],
  ['DEV_STATS_READ_QUERY_TIMEOUT_SECONDS', '3601', { readQueries: { timeoutSeconds: 3601 } }],
]

const refusal = (attempt: () => unknown): ConfigError => {
  try {
    attempt()
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('accepted')
}

describe('one rule per setting, for the environment and for a host config alike', () => {
  it.each(INVALID)('%s=%s is refused on both paths, each naming the setting', (env, value, host) => {
    const fromEnv = refusal(() => loadConfig({ [env]: value }))
    const rule = SETTING_RULES.find((r) => r.env === env)
    expect(rule).toBeDefined()
    expect(fromEnv.setting).toBe(env)
    const fromHost = refusal(() => resolveConfig(host))
    expect(fromHost.setting).toBe(`config.${rule?.path}`)
    // the same rule said it: the same words after the name (unless the text was no number at all)
    if (!/must be a whole number, got "/.test(fromEnv.message)) expect(fromHost.message.replace(`config.${rule?.path}`, '')).toBe(fromEnv.message.replace(env, ''))
  })

  it('a ClickHouse URL with credentials is refused without the secret in any message', () => {
    for (const url of ['http://user:s3cr3t-pw@ch:8123', 'https://admin:s3cr3t-pw@ch:8443/?x=1']) {
      for (const e of [refusal(() => loadConfig({ DEV_STATS_CLICKHOUSE_URL: url })), refusal(() => resolveConfig({ clickhouse: { url } }))]) {
        expect(e.message).toMatch(/must not carry credentials/)
        expect(e.message).not.toContain('s3cr3t-pw')
      }
    }
    // not even when the URL is malformed otherwise
    expect(refusal(() => resolveConfig({ clickhouse: { url: 'ftp://user:s3cr3t-pw@ch' } })).message).not.toContain('s3cr3t-pw')
  })

  it('every rule has a case in the table', () => {
    expect(SETTING_RULES.map((r) => r.env).filter((env) => !INVALID.some(([e]) => e === env))).toEqual([])
  })

  it('several bad host settings are named in one error', () => {
    expect(refusal(() => resolveConfig({ broker: 'x' as never, http: { port: -1 } })).message).toMatch(/config\.broker must be one of .*config\.http\.port must be a port/)
  })
})
