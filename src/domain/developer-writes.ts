import type { Guid } from './guid.js'
import { dayOf, type DayNumber } from './serving-links.js'
import type { Instant } from './instant.js'

/** The read sources whose rows are keyed by developer (the read cache's per-developer versions). */
export type DeveloperSource = 'views' | 'sessions' | 'funnel'

/** How many rows one write put under a developer's key into one source's tables. */
export interface DeveloperWrite {
  readonly keyDeveloperId: Guid
  readonly source: DeveloperSource
  readonly rows: number
}

/** The rows written per developer and source, from the developer key of every row written. */
export const developerWrites = (keys: Readonly<Record<DeveloperSource, readonly Guid[]>>): DeveloperWrite[] => {
  const writes: DeveloperWrite[] = []
  for (const source of ['views', 'sessions', 'funnel'] as const) {
    const counts = new Map<Guid, number>()
    for (const k of keys[source]) counts.set(k, (counts.get(k) ?? 0) + 1)
    for (const [keyDeveloperId, rows] of counts) writes.push({ keyDeveloperId, source, rows })
  }
  return writes
}

/** Rows one write put under a developer's key into a source's serving table, counted on one UTC day (domain/day-records.ts). */
export interface DeveloperDayWrite {
  readonly keyDeveloperId: Guid
  readonly source: 'views' | 'sessions'
  readonly day: DayNumber
  readonly rows: number
}

/** The per-day counts of a write: a view row on its EventTime day, a session row on each day it is counted on. */
export const developerDayWrites = (
  views: readonly { readonly keyDeveloperId: Guid; readonly eventTime: Instant }[],
  sessions: readonly { readonly keyDeveloperId: Guid; readonly days: readonly DayNumber[] }[],
): DeveloperDayWrite[] => {
  const counts = new Map<string, DeveloperDayWrite>()
  const add = (keyDeveloperId: Guid, source: 'views' | 'sessions', day: DayNumber) => {
    const k = `${source}|${keyDeveloperId}|${day}`
    counts.set(k, { keyDeveloperId, source, day, rows: (counts.get(k)?.rows ?? 0) + 1 })
  }
  for (const v of views) add(v.keyDeveloperId, 'views', dayOf(v.eventTime))
  for (const s of sessions) for (const day of new Set(s.days)) add(s.keyDeveloperId, 'sessions', day)
  return [...counts.values()]
}
