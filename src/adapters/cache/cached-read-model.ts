import { LRUCache } from 'lru-cache'
import type { Clock } from '../../application/ports/clock.port.js'
import type { DataVersionReader, ReadSource } from '../../application/ports/data-version.port.js'
import { HIERARCHY_FILTER_FIELDS, type DateRange, type HierarchyFilter, type Period, type ReadModel, type SessionMetricsTotals, type StageCounts } from '../../application/ports/read-model.port.js'
import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import { freshBatchedReads } from '../../application/read/fresh-batched-reads.js'
import { freshReads } from './fresh-reads.js'

/** The question a funnel read asks: every declared filter level in it, an absent one as null. */
export const funnelCountsKey = (developerId: Guid, range: DateRange, filter: HierarchyFilter, fields: readonly string[] = HIERARCHY_FILTER_FIELDS): unknown[] => [
  'funnelCounts',
  developerId,
  range.fromDate,
  range.toDate,
  ...fields.map((f) => (filter as Readonly<Record<string, Guid | undefined>>)[f] ?? null),
]

export interface ReadCacheOptions {
  /** Answers kept, least recently used dropped first. */
  readonly maxEntries: number
  /** An answer checked against the store this recently is served without asking again; 0: every read asks. */
  readonly maxStaleMs: number
}

interface Answer {
  /** The versions of its sources it was computed at. */
  readonly version: string
  readonly value: object
  /** When the store last confirmed it: it holds the data of that moment or later. */
  checkedAt: Instant
  /** When a probe last found the answer kept before it out of date. */
  readonly changedAt?: Instant
}

/**
 * A question whose answer had changed at its last probe is read from the store without a probe
 * for this long (its answers are not kept meanwhile): under steady ingest for its developer the
 * probe would only add a round trip, and a busy server's round trips are what a read waits on.
 */
const CHANGING_MS = 30_000

/**
 * A ReadModel that answers a repeated question from memory while the store's data behind it is
 * unchanged, so a dashboard's many identical reads cost one query. By default never stale: a
 * read first learns the store's current versions with a probe started after the read arrived
 * (concurrent reads share probes), and an answer is reused only under the versions it was
 * computed at. Where the store can tell a developer's own versions, a developer's answers are
 * keyed by those, so a live ingest invalidates only the answers of the developers it wrote for
 * (concurrent reads of many developers share one probe). A question found changed at its last
 * probe goes to the store without one for CHANGING_MS. With `maxStaleMs`, an answer confirmed
 * that recently is served as it is, so under steady ingest a question costs one query per
 * `maxStaleMs`, not one per insert. Concurrent identical reads after a probe share one query (a
 * changing question's each go to the store, as many as the read API's per-developer rate limit
 * lets through); failures are not kept.
 */
export class CachedReadModel implements ReadModel {
  private readonly answers: LRUCache<string, Answer>
  private readonly running = new Map<string, Promise<object>>()
  private readonly versions: () => Promise<ReadonlyMap<ReadSource, string>>
  /** A developer's own tokens, where the store can tell them: other developers' writes do not touch its answers. */
  private readonly developerVersions?: (developerId: Guid) => Promise<ReadonlyMap<ReadSource, string> | undefined>

  constructor(
    private readonly inner: ReadModel,
    versions: DataVersionReader,
    private readonly clock: Clock,
    private readonly options: ReadCacheOptions,
  ) {
    this.versions = freshReads(() => versions.versions())
    const perDeveloper = versions.developerVersions?.bind(versions)
    if (perDeveloper) this.developerVersions = freshBatchedReads((ids: ReadonlySet<Guid>) => perDeveloper([...ids]))
    this.answers = new LRUCache({ max: options.maxEntries })
  }

  sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    return this.cached(['views', 'sessions'], ['sessionMetrics', developerId, period.from, period.to], () => this.inner.sessionMetrics(developerId, period), developerId)
  }

  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    return this.cached(['dimensions'], ['dimensionNames', level, ...ids], () => this.inner.dimensionNames(level, ids))
  }

  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    return this.cached(['funnel'], funnelCountsKey(developerId, range, filter), () => this.inner.funnelCounts(developerId, range, filter), developerId)
  }

  private async cached<T extends object>(sources: readonly ReadSource[], question: readonly unknown[], read: () => Promise<T>, developerId?: Guid): Promise<T> {
    const key = JSON.stringify(question)
    const recent = this.answers.get(key)
    if (recent && this.clock.now() - recent.checkedAt < this.options.maxStaleMs) return recent.value as T
    if (recent?.changedAt !== undefined && this.clock.now() - recent.changedAt < CHANGING_MS) return read()
    // taken before the probe: the versions it returns are of this moment or later
    const checkedAt = this.clock.now()
    const now = developerId && this.developerVersions ? ((await this.developerVersions(developerId)) ?? new Map<ReadSource, string>()) : await this.versions()
    const version = JSON.stringify(sources.map((s) => now.get(s) ?? ''))
    const kept = this.answers.get(key)
    if (kept?.version === version) {
      kept.checkedAt = Math.max(kept.checkedAt, checkedAt)
      return kept.value as T
    }
    return (await this.shared(`${key}@${version}`, async () => {
      const value = await read()
      this.answers.set(key, { version, value, checkedAt, ...(kept ? { changedAt: checkedAt } : {}) })
      return value
    })) as T
  }

  /** One query for identical reads of the same versions at once; a failure is passed on, never kept. */
  private shared(flight: string, query: () => Promise<object>): Promise<object> {
    const running = this.running.get(flight)
    if (running) return running
    const started = query().finally(() => this.running.delete(flight))
    this.running.set(flight, started)
    return started
  }
}
