import type { Guid } from './guid.js'

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
