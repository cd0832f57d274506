import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import { HIERARCHY_FILTER_FIELDS, ReadsOverloaded, type DateRange, type HierarchyFilter, type Period, type ReadModel, type SessionMetricsTotals, type StageCounts } from '../ports/read-model.port.js'
import { freshBatchedReads } from './fresh-batched-reads.js'

/**
 * Reads of one kind that arrive together become one store read: the unfiltered funnels of one range
 * (many developers, `funnelCountsOfDevelopers`) and the names of one level (each read of one id).
 * A batch of funnel events changes many developers' funnels at once, and a dimension write changes
 * every name answer in the read cache: the dashboards' next reads all miss the cache and, one by
 * one, would queue for the store, each a query of its own, where one query for all of them costs
 * little more than one. A read is answered by a store read started after it arrived (the read cache
 * above keys answers by versions taken before the read), with at most one store read of a kind at
 * a time: the reads arriving meanwhile are gathered into the next. At most `maxWaiting` reads of
 * a kind wait for it at once (as many as the read bounds admit); one more is refused
 * (ReadsOverloaded), as a read past the bounds' queue is. Filtered funnel reads, funnels of a store that cannot read
 * many developers' at once, and the session metrics pass straight through.
 */
export class GatheredReads implements ReadModel {
  private readonly gatherings = new Map<string, (key: Guid) => Promise<unknown>>()
  private readonly waiting = new Map<string, number>()

  /** The store's read of many developers' funnels, where it has one. */
  private readonly funnelsOf?: (developerIds: readonly Guid[], range: DateRange) => Promise<ReadonlyMap<Guid, StageCounts>>

  constructor(
    private readonly inner: ReadModel,
    private readonly maxWaiting = Number.POSITIVE_INFINITY,
  ) {
    this.funnelsOf = inner.funnelCountsOfDevelopers?.bind(inner)
  }

  sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    return this.inner.sessionMetrics(developerId, period)
  }

  /** A read of one id's name is gathered; a read of several is one store read already. */
  async dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    const [id] = ids
    if (ids.length !== 1 || id === undefined) return this.inner.dimensionNames(level, ids)
    const kind = `names:${level}`
    const name = await this.waitFor(kind, () => this.gathering<string | null>(kind, (wanted) => this.inner.dimensionNames(level, [...wanted]))(id))
    // an unknown id stays absent, a nameless one is null
    return name === undefined ? new Map() : new Map([[id, name]])
  }

  async funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    const many = this.funnelsOf
    if (!many || HIERARCHY_FILTER_FIELDS.some((f) => filter[f] !== undefined)) return this.inner.funnelCounts(developerId, range, filter)
    const kind = `funnel:${range.fromDate}/${range.toDate}`
    const counts = await this.waitFor(kind, () => this.gathering<StageCounts>(kind, (ids) => many([...ids], range))(developerId))
    if (!counts) throw new Error(`the store's funnels of ${range.fromDate}..${range.toDate} left out developer ${developerId}`)
    return counts
  }

  private async waitFor<T>(kind: string, read: () => Promise<T>): Promise<T> {
    const waiting = this.waiting.get(kind) ?? 0
    if (waiting >= this.maxWaiting) throw new ReadsOverloaded(this.gatherings.size, waiting)
    this.waiting.set(kind, waiting + 1)
    try {
      return await read()
    } finally {
      const left = (this.waiting.get(kind) ?? 1) - 1
      if (left === 0) this.waiting.delete(kind)
      else this.waiting.set(kind, left)
    }
  }

  /** The gathering of one kind of read; dropped once idle, so kinds asked once (a range) are not kept. */
  private gathering<V>(kind: string, readMany: (keys: ReadonlySet<Guid>) => Promise<ReadonlyMap<Guid, V>>): (key: Guid) => Promise<V | undefined> {
    const running = this.gatherings.get(kind)
    if (running) return running as (key: Guid) => Promise<V | undefined>
    const read = freshBatchedReads(readMany, () => {
      if (this.gatherings.get(kind) === read) this.gatherings.delete(kind)
    })
    this.gatherings.set(kind, read)
    return read
  }

  /** Kinds of read running or waiting (for tests: an idle kind is not kept). */
  get kindsInFlight(): number {
    return this.gatherings.size
  }
}
