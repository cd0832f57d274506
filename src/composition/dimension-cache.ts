import { CachedDimensionReader } from '../adapters/cache/cached-dimension-reader.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { DimensionReader, VersionedDimensionReader } from '../application/ports/dimension-reader.port.js'
import type { IngestConfig } from './config.js'
import type { StoreAdapters } from './store.factory.js'

const versioned = (reader: DimensionReader): reader is VersionedDimensionReader => 'latestVersionedPaths' in reader

/**
 * The store's dimension reader behind the process's dimension cache, and its fact store feeding
 * the cache what it stores, where the reader tells versions (the store's own: ClickHouse, chdb, memory) and the cache is on.
 */
export const withDimensionCache = (store: StoreAdapters, { dimensionCache }: IngestConfig, clock: Clock): StoreAdapters => {
  const { dimensionReader, factStore } = store
  if (!versioned(dimensionReader) || dimensionCache.maxEntries === 0 || dimensionCache.maxAgeSeconds === 0) return store
  const cache = new CachedDimensionReader(dimensionReader, clock, { maxEntries: dimensionCache.maxEntries, maxAgeMs: dimensionCache.maxAgeSeconds * 1000 })
  return { ...store, dimensionReader: cache, factStore: cache.feeding(factStore) }
}
