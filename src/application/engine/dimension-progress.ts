import type { Instant } from '../../domain/instant.js'
import type { PartitionLag } from '../ports/consumer-lag.port.js'
import { partitionKey } from './offset-tracker.js'

/**
 * How far the consumers that write the looked-up dimension (dim_property_object) have stored.
 * A record whose parking attempts are spent is a `dimension-gap` only once every dimension
 * produced before its window closed is in the store: a dimension consumer catching up a backlog
 * must not turn late records into dead letters (docs/ingest-rules.md, "Parking").
 */
export interface DimensionProgress {
  /** Every dimension record produced before this instant is stored. Undefined while not known yet. */
  storedThrough(): Instant | undefined
  /**
   * True when a lag reader feeds this progress: a record whose attempts are spent waits for it to
   * pass its window (at most the maximum wait), also before the first read has come back. False
   * when nothing here watches those consumers: parking ends after its attempts alone.
   */
  readonly fed: boolean
}

/** The end offsets of a consumer's partitions as read from `at` on. */
interface Snapshot {
  readonly at: Instant
  readonly ends: readonly PartitionLag[]
}

/** Snapshots kept per consumer while it is behind (one per lag read: 15 s → over 4 hours). */
const MAX_SNAPSHOTS = 1000

/**
 * Fed by the lag monitor. Records produced before `at` lie below the end offsets read from `at`
 * on; once the group's committed offsets (committed only after the insert) reach a snapshot's
 * ends, everything produced before its `at` is stored.
 */
export class DimensionProgressTracker implements DimensionProgress {
  private readonly snapshots = new Map<string, Snapshot[]>()
  private readonly through = new Map<string, Instant>()
  private readonly partitions = new Map<string, Set<string>>()

  readonly fed: boolean

  /**
   * `consumers`: names of this process's consumers that write the looked-up dimension; `fed`:
   * whether a lag reader reports their reads here (the composition knows, before any read).
   */
  constructor(
    private readonly consumers: readonly string[],
    options: { readonly fed: boolean },
  ) {
    this.fed = options.fed && consumers.length > 0
  }

  storedThrough(): Instant | undefined {
    let least: Instant | undefined
    for (const name of this.consumers) {
      const t = this.through.get(name)
      if (t === undefined) return undefined
      least = least === undefined ? t : Math.min(least, t)
    }
    return least
  }

  /** One lag read of `consumer`, started at `readFrom`. */
  observed(consumer: string, lags: readonly PartitionLag[], readFrom: Instant): void {
    if (!this.consumers.includes(consumer)) return
    const committed = new Map(lags.map((l) => [partitionKey(l), l.committed]))
    // A read that lacks a partition an earlier one had proves nothing about it.
    const known = this.partitions.get(consumer) ?? new Set()
    if ([...known].some((p) => !committed.has(p))) return
    this.partitions.set(consumer, new Set([...known, ...committed.keys()]))
    const kept = this.snapshots.get(consumer) ?? []
    kept.push({ at: readFrom, ends: lags })
    const reached = (s: Snapshot) => s.ends.every((e) => (committed.get(partitionKey(e)) ?? -1) >= e.end)
    let latest = -1
    for (let i = 0; i < kept.length; i++) if (reached(kept[i] as Snapshot)) latest = i
    if (latest >= 0) this.through.set(consumer, (kept[latest] as Snapshot).at)
    this.snapshots.set(consumer, kept.slice(latest + 1).slice(-MAX_SNAPSHOTS))
  }
}
