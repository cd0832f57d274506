import { ReadsOverloaded, ReadTimedOut, type DateRange, type HierarchyFilter, type Period, type ReadModel, type SessionMetricsTotals, type StageCounts } from '../ports/read-model.port.js'
import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'

export interface ReadBounds {
  /** Reads of the store running at once; the next ones wait. */
  readonly maxConcurrent: number
  /** Reads waiting for a turn; one more is refused with ReadsOverloaded. */
  readonly maxQueued: number
  /**
   * A read still waiting for its turn after this long is dropped (ReadTimedOut), never run: its
   * caller has been answered 503 by then (the read API's deadline is the reads' time limit plus a
   * grace), and running it would only take the store from reads that can still be answered.
   * Absent or 0: it waits as long as it takes.
   */
  readonly maxWaitMs?: number
}

interface Waiting {
  readonly turn: () => void
}

/**
 * A ReadModel that lets at most `maxConcurrent` reads reach the store at once and queues at most
 * `maxQueued` more, first come first served: a burst of dashboards waits its turn instead of piling
 * onto the store, and past the queue it is refused at once (the read API answers 503 with
 * Retry-After). Below the read cache, so answers from memory never wait.
 */
export class BoundedReadModel implements ReadModel {
  private running = 0
  private readonly waiting: Waiting[] = []

  /** Present where the store's is: the funnels of many developers in one turn. */
  readonly funnelCountsOfDevelopers?: (developerIds: readonly Guid[], range: DateRange) => Promise<ReadonlyMap<Guid, StageCounts>>

  constructor(
    private readonly inner: ReadModel,
    private readonly bounds: ReadBounds,
  ) {
    const many = inner.funnelCountsOfDevelopers?.bind(inner)
    if (many) this.funnelCountsOfDevelopers = (developerIds, range) => this.inTurn(() => many(developerIds, range))
  }

  /** One turn for a session-metrics read: its sessions and views together. */
  sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    return this.inTurn(() => this.inner.sessionMetrics(developerId, period))
  }

  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    return this.inTurn(() => this.inner.dimensionNames(level, ids))
  }

  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    return this.inTurn(() => this.inner.funnelCounts(developerId, range, filter))
  }

  private async inTurn<T>(read: () => Promise<T>): Promise<T> {
    if (this.running >= this.bounds.maxConcurrent) {
      if (this.waiting.length >= this.bounds.maxQueued) throw new ReadsOverloaded(this.running, this.waiting.length)
      await this.turn()
    } else {
      this.running += 1
    }
    try {
      return await read()
    } finally {
      // the turn passes straight to the next waiting read, or the slot is freed
      const next = this.waiting.shift()
      if (next) next.turn()
      else this.running -= 1
    }
  }

  /** Waits for a running read to pass its turn on; past maxWaitMs the read leaves the queue. */
  private turn(): Promise<void> {
    const maxWaitMs = this.bounds.maxWaitMs ?? 0
    return new Promise<void>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined
      const waiting: Waiting = { turn: () => (clearTimeout(timer), resolve()) }
      this.waiting.push(waiting)
      if (maxWaitMs > 0) {
        timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiting), 1)
          reject(new ReadTimedOut(Math.ceil(maxWaitMs / 1000)))
        }, maxWaitMs)
      }
    })
  }
}
