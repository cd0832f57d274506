import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { DataVersionReader, ReadSource } from '../ports/data-version.port.js'
import type { DateRange, HierarchyFilter, Period, ReadModel, SessionTotals, StageCounts, ViewTotals } from '../ports/read-model.port.js'
import { freshReads } from './fresh-reads.js'

export interface ReadCacheOptions {
  /** Answers kept, least recently used dropped first. */
  readonly maxEntries: number
}

interface Entry {
  readonly version: string
  readonly value: unknown
}

/**
 * A ReadModel that answers a repeated question from memory while the store's data behind it is
 * unchanged, so a dashboard's many identical reads cost one query. Never stale: every read first
 * learns the store's current version with a probe started after the read arrived (concurrent
 * reads share probes), and an answer is reused only under the version it was computed at.
 * Concurrent identical reads share one query; failures are not kept.
 */
export class CachedReadModel implements ReadModel {
  private readonly entries = new Map<string, Entry>()
  private readonly running = new Map<string, Promise<unknown>>()
  private readonly versions: () => Promise<ReadonlyMap<ReadSource, string>>

  constructor(
    private readonly inner: ReadModel,
    versions: DataVersionReader,
    private readonly options: ReadCacheOptions,
  ) {
    this.versions = freshReads(() => versions.versions())
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

  private async cached<T>(sources: readonly ReadSource[], keyParts: readonly unknown[], read: () => Promise<T>): Promise<T> {
    const key = JSON.stringify(keyParts)
    const now = await this.versions()
    const version = JSON.stringify(sources.map((s) => now.get(s) ?? ''))
    const entry = this.entries.get(key)
    if (entry?.version === version) {
      // re-inserted: a Map iterates in insertion order, so the first key is the least recently used
      this.entries.delete(key)
      this.entries.set(key, entry)
      return entry.value as T
    }
    const flight = `${key}@${version}`
    let pending = this.running.get(flight) as Promise<T> | undefined
    if (!pending) {
      pending = read()
      this.running.set(flight, pending)
      pending.then(
        (value) => this.keep(key, { version, value }),
        () => undefined,
      ).finally(() => this.running.delete(flight))
    }
    return pending
  }

  private keep(key: string, entry: Entry): void {
    this.entries.delete(key)
    this.entries.set(key, entry)
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value as string
      this.entries.delete(oldest)
    }
  }
}
