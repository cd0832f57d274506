import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { InMemoryFactStore } from '../../../src/adapters/memory/in-memory-fact-store.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import { CachedDimensionReader, DimensionFeedingFactStore } from '../../../src/adapters/cache/cached-dimension-reader.js'
import { ClickHouseDimensionReader } from '../../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { CachedReadModel } from '../../../src/adapters/cache/cached-read-model.js'
import { GatheredReads } from '../../../src/application/read/gathered-reads.js'
import { BoundedReadModel } from '../../../src/application/read/bounded-read-model.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'

/** Every read model the container makes is gathered over bounded (GatheredReads, BoundedReadModel) over the day records: the store's is inside. */
const innerOf = (m: unknown): unknown => {
  if (!(m instanceof GatheredReads)) throw new Error(`not gathered: ${String(m)}`)
  const bounded = (m as unknown as { inner: unknown }).inner
  if (!(bounded instanceof BoundedReadModel)) throw new Error(`not bounded: ${String(bounded)}`)
  const records = (bounded as unknown as { inner: unknown }).inner
  if (!(records instanceof DayRecordsReadModel)) throw new Error(`not from day records: ${String(records)}`)
  return (records as unknown as { inner: unknown }).inner
}

describe('store settings', () => {
  it('defaults: memory store, local server settings, a project-local embedded directory', () => {
    const c = loadConfig({})
    expect(c.store).toBe('memory')
    expect(c.clickhouse).toEqual({ url: 'http://127.0.0.1:18123', user: 'default', password: '', database: 'pin_dev_stats', requestTimeoutMs: 30_000 })
    expect(c.embedded.path).toBe('.infra/embedded-clickhouse')
  })

  it('DEV_STATS_CLICKHOUSE_CLUSTER: a cluster name when set, none when unset or empty', () => {
    expect(loadConfig({ DEV_STATS_CLICKHOUSE_CLUSTER: 'main_cluster' }).clickhouse.cluster).toBe('main_cluster')
    expect(loadConfig({ DEV_STATS_CLICKHOUSE_CLUSTER: '' }).clickhouse).not.toHaveProperty('cluster')
  })

  it('DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS: 30 s unless set, 1 s to 1 h', () => {
    expect(loadConfig({}).clickhouse.requestTimeoutMs).toBe(30_000)
    expect(loadConfig({ DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS: '2500' }).clickhouse.requestTimeoutMs).toBe(2500)
    for (const bad of ['0', '999', '3600001', '2s']) expect(() => loadConfig({ DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS: bad })).toThrow('DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS')
  })

  it.each([
    ['DEV_STATS_STORE', 'postgres'],
    ['DEV_STATS_CLICKHOUSE_URL', 'not a url'],
    ['DEV_STATS_CLICKHOUSE_URL', 'tcp://127.0.0.1:9000'],
    ['DEV_STATS_CLICKHOUSE_DATABASE', 'x; DROP DATABASE y'],
    ['DEV_STATS_CLICKHOUSE_DATABASE', 'a.b'],
    ['DEV_STATS_CLICKHOUSE_CLUSTER', 'c1 ON CLUSTER x'],
  ])('%s=%s is refused naming the setting', (setting, value) => {
    expect(() => loadConfig({ [setting]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [setting]: value })).toThrow(setting)
  })

  it('the container binds the store adapters DEV_STATS_STORE selects, synchronously and without connecting', () => {
    const resolve = (env: Record<string, string>) => createContainer(loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', ...env }))
    // every store keeps the serving tables the read model reads
    // the store's own fact store, behind the dimension cache's feed where the cache is on
    const factsOf = (c: ReturnType<typeof resolve>) => {
      const store = c.get<FactStore>(TOKENS.FactStore)
      return (store instanceof DimensionFeedingFactStore ? (store.inner as ServingFactStore) : (store as ServingFactStore)).facts
    }
    expect(factsOf(resolve({}))).toBeInstanceOf(InMemoryFactStore)
    const server = resolve({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: 'http://127.0.0.1:1' })
    expect(factsOf(server)).toBeInstanceOf(ClickHouseFactStore)
    expect(server.get(TOKENS.ReadModel)).toBeInstanceOf(CachedReadModel)
    expect(innerOf(resolve({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_READ_CACHE_ENTRIES: '0' }).get(TOKENS.ReadModel))).toBeInstanceOf(ClickHouseReadModel)
    // a cluster's other shards write where this server's system.parts cannot see: no cache there
    expect(innerOf(resolve({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_CLUSTER: 'c' }).get(TOKENS.ReadModel))).toBeInstanceOf(ClickHouseReadModel)
    expect(innerOf(resolve({}).get(TOKENS.ReadModel))).toBeInstanceOf(InMemoryReadModel)
    expect(factsOf(resolve({ DEV_STATS_STORE: 'embedded', DEV_STATS_EMBEDDED_PATH: '/nonexistent/never-opened' }))).toBeInstanceOf(ClickHouseFactStore)
  })

  it('puts the dimension cache in front of every store reader that tells versions, fed by the fact store; off at 0 entries or 0 seconds', () => {
    const resolve = (env: Record<string, string>) => createContainer(loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', ...env }))
    const stores: Record<string, string>[] = [{}, { DEV_STATS_STORE: 'clickhouse' }, { DEV_STATS_STORE: 'embedded', DEV_STATS_EMBEDDED_PATH: '/nonexistent/never-opened' }]
    for (const store of stores) {
      const c = resolve(store)
      expect(c.get(TOKENS.DimensionReader)).toBeInstanceOf(CachedDimensionReader)
      expect(c.get(TOKENS.FactStore)).toBeInstanceOf(DimensionFeedingFactStore)
    }
    expect(resolve({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_DIMENSION_CACHE_ENTRIES: '0' }).get(TOKENS.DimensionReader)).toBeInstanceOf(ClickHouseDimensionReader)
    const off = resolve({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_DIMENSION_CACHE_MAX_AGE_SECONDS: '0' })
    expect(off.get(TOKENS.DimensionReader)).toBeInstanceOf(ClickHouseDimensionReader)
    expect(off.get(TOKENS.FactStore)).toBeInstanceOf(ServingFactStore)
    expect(loadConfig({}).dimensionCache).toEqual({ maxEntries: 20_000, maxAgeSeconds: 10 })
  })

  it('DEV_STATS_READ_CACHE_ENTRIES (10,000; 0 for none) and _MAX_STALE_SECONDS (0; at most 300), a clear error otherwise', () => {
    expect(loadConfig({}).readCache).toEqual({ maxEntries: 10_000, maxStaleSeconds: 0 })
    expect(loadConfig({ DEV_STATS_READ_CACHE_ENTRIES: '0' }).readCache.maxEntries).toBe(0)
    expect(loadConfig({ DEV_STATS_READ_CACHE_ENTRIES: '250' }).readCache.maxEntries).toBe(250)
    for (const bad of ['-1', '1.5', 'lots']) expect(() => loadConfig({ DEV_STATS_READ_CACHE_ENTRIES: bad })).toThrow('DEV_STATS_READ_CACHE_ENTRIES')
    expect(loadConfig({ DEV_STATS_READ_CACHE_MAX_STALE_SECONDS: '30' }).readCache.maxStaleSeconds).toBe(30)
    for (const bad of ['301', '-5', '2.5']) expect(() => loadConfig({ DEV_STATS_READ_CACHE_MAX_STALE_SECONDS: bad })).toThrow('DEV_STATS_READ_CACHE_MAX_STALE_SECONDS')
  })

  it('DEV_STATS_VIEW_SOURCES: the eight defaults, a configured list, a clear error for a bad one', () => {
    expect(loadConfig({}).viewSources).toEqual(['Catalog', 'Search', 'Map', 'Chessboard', 'Favorites', 'Selection', 'DirectLink', 'Recommendation'])
    expect(loadConfig({ DEV_STATS_VIEW_SOURCES: ' Catalog, Hologram ,Catalog' }).viewSources).toEqual(['Catalog', 'Hologram'])
    expect(() => loadConfig({ DEV_STATS_VIEW_SOURCES: 'Catalog,Unknown' })).toThrow(/DEV_STATS_VIEW_SOURCES/)
    expect(() => loadConfig({ DEV_STATS_VIEW_SOURCES: 'Catalog,,Map' })).toThrow(ConfigError)
  })
})
