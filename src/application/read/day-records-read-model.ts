import { dayRecords, sameStamp, stampDays, stampOf, totalsOfRecords, type DayRecord, type DayWrites } from '../../domain/day-records.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf, type DayNumber } from '../../domain/serving-links.js'
import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { DayRecordStore, StoredDayRecord } from '../ports/day-records.port.js'
import type { DateRange, HierarchyFilter, Period, ReadModel, SessionMetricsTotals, StageCounts } from '../ports/read-model.port.js'

const DAY_MS = 86_400_000

/** Stores of computed records out at once per process; a read finding them all busy leaves its records to a later read. */
const MAX_STORES = 4

/** Consecutive stale days are computed together, at most this many at a time (a run's views are read into the process). */
const RUN_DAYS = 31

/** Developer-days a process remembers as too heavy to compute (a day's views only grow until it is removed). */
const MAX_HEAVY_DAYS = 10_000

/** What a process computes at once (the class comment). */
export interface ComputeLimits {
  /**
   * Views a computation reads into the process: a run holding more is computed in halves, a day
   * holding more is read from the serving rows (the store aggregates it). One day of a developer
   * with ~200,000 sessions took a 160 MB heap to its limit (docs/soak.md).
   */
  readonly maxRunViews: number
  /** Computations out at once per process; a read finding them all busy waits for one to end. */
  readonly maxComputing: number
}

export const DEFAULT_COMPUTE_LIMITS: ComputeLimits = { maxRunViews: 50_000, maxComputing: 2 }

/**
 * Session metrics of whole UTC days (the read API's periods) from developer-day records
 * (domain/day-records.ts): the period's stored records whose stamps equal the days' write counts
 * now, and the others computed from the serving rows, so a read costs its days and the days
 * written since they were last read, never the developer's sessions. The counts are read before
 * the rows, so a record is never older than its stamp. Each read computes for itself (a
 * computation begun before a read arrived may miss what the read must see). What a read computed
 * is stored after it answered, a few stores at a time: a store that fails or finds no room costs
 * a later read the computation again, never this one its answer. While the store says rows may be written
 * without counts (an older instance still running), the serving rows answer. Any other period, and
 * the funnel and names, are read by `inner` (the serving rows). A computation reads at most
 * `maxRunViews` views into the process (a day holding more is answered by `inner`), and at most
 * `maxComputing` run at once (a read waits for its turn): memory is bounded whatever a developer's
 * days hold. A day found too heavy is remembered, and a read of a period holding it goes to `inner`
 * at once, without asking for its counts and records again.
 */
export class DayRecordsReadModel implements ReadModel {
  private storing = 0
  private computing = 0
  private readonly waitingToCompute: (() => void)[] = []
  /** `developer/day` of the days found too heavy, oldest first (bounded by MAX_HEAVY_DAYS). */
  private readonly heavyDays = new Set<string>()

  /** Present where the inner model's is. */
  readonly funnelCountsOfDevelopers?: (developerIds: readonly Guid[], range: DateRange) => Promise<ReadonlyMap<Guid, StageCounts>>

  constructor(
    private readonly inner: ReadModel,
    private readonly store: DayRecordStore,
    /** A computed record that could not be stored (the read answered all the same). */
    private readonly notStored: (error: unknown) => void = () => undefined,
    private readonly limits: ComputeLimits = DEFAULT_COMPUTE_LIMITS,
  ) {
    this.funnelCountsOfDevelopers = inner.funnelCountsOfDevelopers?.bind(inner)
  }

  async sessionMetrics(developerId: Guid, period: Period): Promise<SessionMetricsTotals> {
    const whole = wholeDays(period)
    const records = whole ? await this.current(developerId, whole.first, whole.last) : undefined
    return whole && records ? totalsOfRecords(records, whole.first, whole.last) : this.inner.sessionMetrics(developerId, period)
  }

  dimensionNames(level: UpperLevel, ids: readonly Guid[]): Promise<ReadonlyMap<Guid, string | null>> {
    return this.inner.dimensionNames(level, ids)
  }

  funnelCounts(developerId: Guid, range: DateRange, filter: HierarchyFilter): Promise<StageCounts> {
    return this.inner.funnelCounts(developerId, range, filter)
  }

  /** The records of [first, last], computing the stale ones; undefined while rows may be written without counts. */
  private async current(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DayRecord[] | undefined> {
    // a day found too heavy gets no record computed: its periods go to `inner` without asking the store first
    if (this.holdsHeavyDay(developerId, first, last)) return undefined
    const counted = stampDays(first, last)
    const [writes, stored] = await Promise.all([
      this.store.dayWrites(developerId, counted.first, counted.last),
      this.store.records(developerId, first, last),
    ])
    if (!writes.counted) return undefined
    const storedByDay = new Map(stored.map((r) => [r.day, r]))
    const records: DayRecord[] = []
    const stale = new Set<DayNumber>()
    // every day, an empty one too: a day's counts may be lost (rows removed by hand), its record's removal token tells
    for (let day = first; day <= last; day++) {
      const kept = storedByDay.get(day)
      if (kept && sameStamp(kept.stamp, stampOf(writes, day, kept.windowFirst))) records.push(kept)
      else stale.add(day)
    }
    if (stale.size === 0) return records
    await this.computeSlot()
    try {
      const fresh = await this.computed(developerId, stale, writes)
      if (fresh === undefined) return undefined
      if (fresh.length > 0) this.storeAfterAnswer(developerId, fresh)
      return [...records, ...fresh]
    } finally {
      this.freeComputeSlot()
    }
  }

  private async computeSlot(): Promise<void> {
    if (this.computing < this.limits.maxComputing) this.computing++
    else await new Promise<void>((taken) => this.waitingToCompute.push(taken))
  }

  /** Hands the slot to the next read waiting for one, if any. */
  private freeComputeSlot(): void {
    const next = this.waitingToCompute.shift()
    if (next) next()
    else this.computing--
  }

  /**
   * The stale days' records, runs too heavy for maxRunViews halved; undefined when one day is. A
   * run whose counted view rows are over the limit is halved (a day, found heavy) before reading it:
   * the counts are the rows written, at least one per view, so it holds about that many views at
   * least, and finding that out by reading costs a ranking of its rows and maxRunViews views read.
   */
  private async computed(developerId: Guid, stale: ReadonlySet<DayNumber>, writes: DayWrites): Promise<StoredDayRecord[] | undefined> {
    const fresh: StoredDayRecord[] = []
    const runs = runsOf(stale)
    for (let run = runs.shift(); run; run = runs.shift()) {
      // recordInputs reads the views of the run's days and of the day before
      const surelyTooHeavy = viewWrites(writes, run.first - 1, run.last) > this.limits.maxRunViews
      const inputs = surelyTooHeavy ? undefined : await this.store.recordInputs(developerId, run.first, run.last, this.limits.maxRunViews)
      if (!inputs) {
        if (run.first === run.last) return this.rememberHeavy(developerId, run.first)
        const middle = Math.floor((run.first + run.last) / 2)
        runs.unshift({ first: run.first, last: middle }, { first: middle + 1, last: run.last })
        continue
      }
      for (const r of dayRecords(inputs.views, inputs.facts, run.first, run.last)) {
        if (stale.has(r.day)) fresh.push({ ...r, stamp: stampOf(writes, r.day, r.windowFirst) })
      }
    }
    return fresh
  }

  private holdsHeavyDay(developerId: Guid, first: DayNumber, last: DayNumber): boolean {
    if (this.heavyDays.size === 0) return false
    for (let day = first; day <= last; day++) if (this.heavyDays.has(`${developerId}/${day}`)) return true
    return false
  }

  private rememberHeavy(developerId: Guid, day: DayNumber): undefined {
    this.heavyDays.add(`${developerId}/${day}`)
    if (this.heavyDays.size > MAX_HEAVY_DAYS) this.heavyDays.delete(this.heavyDays.values().next().value as string)
    return undefined
  }

  private storeAfterAnswer(developerId: Guid, records: StoredDayRecord[]): void {
    if (this.storing >= MAX_STORES) return
    this.storing++
    void this.store
      .storeRecords(developerId, records)
      .catch((e: unknown) => this.notStored(e))
      .finally(() => {
        this.storing--
      })
  }
}

/** The view rows counted on [first, last]. */
const viewWrites = (writes: DayWrites, first: DayNumber, last: DayNumber): number => {
  let rows = 0
  for (let day = first; day <= last; day++) rows += writes.views.get(day) ?? 0
  return rows
}

/** Days grouped into runs of consecutive days, each at most RUN_DAYS long. */
const runsOf = (days: ReadonlySet<DayNumber>): { first: DayNumber; last: DayNumber }[] => {
  const runs: { first: DayNumber; last: DayNumber }[] = []
  for (const day of [...days].sort((a, b) => a - b)) {
    const run = runs[runs.length - 1]
    if (run && day === run.last + 1 && day - run.first < RUN_DAYS) run.last = day
    else runs.push({ first: day, last: day })
  }
  return runs
}

/** The UTC days [first, last] a period covers exactly, or undefined when it does not start and end at midnight. */
const wholeDays = (period: Period): { first: number; last: number } | undefined =>
  period.from % DAY_MS === 0 && period.to % DAY_MS === 0 && period.to > period.from && period.from >= 0 ? { first: dayOf(period.from), last: dayOf(period.to) - 1 } : undefined
