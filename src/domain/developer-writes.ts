import type { Guid } from './guid.js'
import { dayOf, type DayNumber } from './serving-links.js'
import type { Instant } from './instant.js'

/** The read sources whose rows are keyed by developer (the read cache's per-developer versions). */
export type DeveloperSource = 'views' | 'sessions' | 'funnel'

/** The day the funnel rows written under a developer are counted on (1970-01-01): they have no per-day count. */
export const TOTAL_DAY: DayNumber = 0

/**
 * Rows one write put under a developer's key into one source's tables, counted on one UTC day.
 * One counter for both readers: a day's counts stamp the day records (domain/day-records.ts), and
 * the sum of a developer's counts of a source is the read cache's version of its answers, so a
 * version never moves ahead of the counts the records are checked against. Counts only grow.
 */
export interface DeveloperWrite {
  readonly keyDeveloperId: Guid
  readonly source: DeveloperSource
  readonly day: DayNumber
  readonly rows: number
}

/** The counts of one write: a view row on its EventTime day, a session row on each day it is counted on, a funnel row on TOTAL_DAY. */
export const developerWrites = (written: {
  readonly views: readonly { readonly keyDeveloperId: Guid; readonly eventTime: Instant }[]
  readonly sessions: readonly { readonly keyDeveloperId: Guid; readonly days: readonly DayNumber[] }[]
  readonly funnel: readonly Guid[]
}): DeveloperWrite[] => {
  const counts = new Map<string, DeveloperWrite>()
  const add = (keyDeveloperId: Guid, source: DeveloperSource, day: DayNumber) => {
    const k = `${source}|${keyDeveloperId}|${day}`
    counts.set(k, { keyDeveloperId, source, day, rows: (counts.get(k)?.rows ?? 0) + 1 })
  }
  for (const v of written.views) add(v.keyDeveloperId, 'views', dayOf(v.eventTime))
  for (const s of written.sessions) for (const day of new Set(s.days)) add(s.keyDeveloperId, 'sessions', day)
  for (const developerId of written.funnel) add(developerId, 'funnel', TOTAL_DAY)
  return [...counts.values()]
}
