import { LRUCache } from 'lru-cache'
import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { DataVersionReader, ReadSource } from '../../application/ports/data-version.port.js'
import type { DateRange, HierarchyFilter, Period, ReadModel, SessionTotals, StageCounts, ViewTotals } from '../../application/ports/read-model.port.js'
import { freshReads } from './fresh-reads.js'

export interface ReadCacheOptions {
  /** Answers kept, least recently used dropped first. */
  readonly maxEntries: number
}

/**
 * A ReadModel that answers a repeated question from memory while the store's data behind it is
 * unchanged, so a dashboard's many identical reads cost one query. Never stale: every read first
 * learns the store's current versions with a probe started after the read arrived (concurrent
 * reads share probes), and an answer is kept under the versions it was computed at, so a changed
 * source is a new key (the old answer ages out). Concurrent identical reads share one query
 * (LRUCache.fetch); failures are not kept.
 */
export class CachedReadModel implements ReadModel {
  private readonly answers: LRUCache<string, object, () => Promise<object>>
  private readonly versions: () => Promise<ReadonlyMap<ReadSource, string>>

  constructor(
    private readonly inner: ReadModel,
    versions: DataVersionReader,
    options: ReadCacheOptions,
  ) {
    this.versions = freshReads(() => versions.versions())
    this.answers = new LRUCache({ max: options.maxEntries, fetchMethod: (_key, _stale, { context }) => context() })
  }

  sessionTotals(developerId: Guid, period: Period): Promise<SessionTotals> {
    return this.cached(['views', 'sessions'], ['sessionTotals', developerId, period.from, period.to], () => this.inner.sessionTotals(developerId, period))
  }

  viewTotals(developerId: Guid, period: Period): Promise<ViewTotals> {
    return this.cached(['views'], ['viewTotals', developerId, period.from, period.to], () => this.inner.viewTotals(developerId, period))
  }

  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    return this.cached(['dimensions'], ['dimensionNames', level, ...ids], () => this.inner.dimensionNames(level, ids))
  }

  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    const { projectId, buildingId, layoutGroupId, layoutId, propertyObjectId } = filter
    const key = ['funnelCounts', developerId, range.fromDate, range.toDate, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId]
    return this.cached(['funnel'], key, () => this.inner.funnelCounts(developerId, range, filter))
  }

  private async cached<T extends object>(sources: readonly ReadSource[], question: readonly unknown[], read: () => Promise<T>): Promise<T> {
    const now = await this.versions()
    const key = JSON.stringify([...question, ...sources.map((s) => now.get(s) ?? '')])
    return (await this.answers.fetch(key, { context: read })) as T
  }
}
