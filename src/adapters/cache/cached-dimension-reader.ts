import { LRUCache } from 'lru-cache'
import type { Clock } from '../../application/ports/clock.port.js'
import type { DimensionReader, VersionedDimensionReader, VersionedPath } from '../../application/ports/dimension-reader.port.js'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { StoreTrace } from '../../application/ports/tracer.port.js'
import type { DimensionPath } from '../../domain/dimension-path.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { PropertyObjectDimRow } from '../../domain/property-object-dim.js'

export interface DimensionCacheOptions {
  /** Paths kept, least recently used dropped first. */
  readonly maxEntries: number
  /** A path the store confirmed this recently is used without asking the store again. */
  readonly maxAgeMs: number
}

interface Entry extends VersionedPath {
  /**
   * The store held no newer version than this at this instant (its answer to a lookup started
   * then, or an older one); -Infinity for a version this process stored before any lookup of it.
   */
  at: Instant
}

/**
 * The store's latest paths kept in the process: enriching consumers ask the store only for ids
 * not confirmed within `maxAgeMs`, and a version this process's property-object consumer stores
 * replaces an older one at once (`feeding`), so on a single instance a lookup answers what the
 * store would. A version another instance stores is seen within `maxAgeMs` (when the entry is
 * next confirmed). Absent ids are never kept: a late dimension is always asked for.
 */
export class CachedDimensionReader implements DimensionReader {
  private readonly entries: LRUCache<Guid, Entry>

  constructor(
    private readonly store: VersionedDimensionReader,
    private readonly clock: Clock,
    private readonly options: DimensionCacheOptions,
  ) {
    this.entries = new LRUCache({ max: options.maxEntries })
  }

  async latestPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, DimensionPath>> {
    const askedAt = this.clock.now()
    const paths = new Map<Guid, DimensionPath>()
    const unconfirmed = new Set<Guid>()
    for (const id of propertyObjectIds) {
      const entry = this.entries.get(id)
      if (entry && askedAt - entry.at < this.options.maxAgeMs) paths.set(id, entry.path)
      else unconfirmed.add(id)
    }
    if (unconfirmed.size === 0) return paths
    // taken before the query: the store held what it answers at this instant or later
    for (const [id, answer] of await this.store.latestVersionedPaths([...unconfirmed])) paths.set(id, this.confirmed(id, answer, askedAt))
    return paths
  }

  /** `rows` are in the store now (their insert was acknowledged). */
  stored(rows: readonly PropertyObjectDimRow[]): void {
    for (const row of rows) {
      const entry = this.entries.get(row.propertyObjectId)
      if (entry && entry.version >= row.version) continue
      const { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId } = row
      // Newer than what the store held at entry.at, but the store may hold newer still (another
      // instance's): the entry stays confirmed only as of then, unconfirmed when there was none.
      this.entries.set(propertyObjectId, { path: { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId }, version: row.version, at: entry?.at ?? -Infinity })
    }
  }

  /** `store` with every acknowledged dim_property_object row passed to this cache. */
  feeding(store: FactStore): DimensionFeedingFactStore {
    return new DimensionFeedingFactStore(store, this)
  }

  /** The store's latest as of `at`, or the newer version this process stored meanwhile. */
  private confirmed(id: Guid, answer: VersionedPath, at: Instant): DimensionPath {
    const entry = this.entries.get(id)
    if (entry && entry.version >= answer.version) {
      entry.at = Math.max(entry.at, at)
      return entry.path
    }
    this.entries.set(id, { path: answer.path, version: answer.version, at })
    return answer.path
  }
}

/** A fact store that tells the dimension cache the dim_property_object rows it has stored. */
export class DimensionFeedingFactStore implements FactStore {
  constructor(
    readonly inner: FactStore,
    private readonly cache: CachedDimensionReader,
  ) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant, trace?: StoreTrace): Promise<void> {
    await this.inner.append(rows, ingestionTime, trace)
    let dims: PropertyObjectDimRow[] | undefined
    for (const r of rows) if (r.table === 'dim_property_object') (dims ??= []).push(r.row)
    if (dims) this.cache.stored(dims)
  }
}
