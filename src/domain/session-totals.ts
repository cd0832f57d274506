import type { Guid } from './guid.js'
import type { SessionLink, ViewLink } from './serving-links.js'
import { mergeViews } from './view-merge.js'

// Spec §8's session metrics as totals that add up, and the two rules every store reads the serving
// rows by: whose a view is (its winning row's developer) and which fact of a session counts (its latest).

/** Spec §8's session metrics of a developer's sessions (the read model's answer). */
export interface SessionTotals {
  readonly sessions: number
  readonly guestSessions: number
  readonly userSessions: number
  readonly totalDurationSeconds: number
  readonly minDurationSeconds: number
  readonly maxDurationSeconds: number
}

/** Views of the developer's property objects in the period, open and closed facts merged per view (spec §7). */
export interface ViewTotals {
  readonly views: number
  readonly closedViews: number
  /** Sum of the closed views' DurationSeconds. */
  readonly totalViewSeconds: number
}

const second = (t: number): number => Math.floor(t / 1000)

/** The developer's views: every view whose winning row (domain/view-merge.ts) is the developer's. */
export const developerViews = (developerId: Guid, rows: Iterable<ViewLink>): ViewLink[] => {
  const merged = mergeViews(rows, (r) => r.propertyObjectViewId, (r) => ({ isClosed: r.isClosed, ingestionSecond: second(r.ingestionTime), factId: r.factId, developerId: r.developerId }))
  return [...merged.values()].filter((v) => v.developerId === developerId)
}

/** Each session's latest fact: the greatest by (IngestionTime in whole seconds, FactId), as every store reads it. */
export const latestSessionFacts = (facts: Iterable<SessionLink>): Map<Guid, SessionLink> => {
  const later = (a: SessionLink, b: SessionLink) =>
    second(a.ingestionTime) > second(b.ingestionTime) || (second(a.ingestionTime) === second(b.ingestionTime) && a.factId > b.factId)
  const latest = new Map<Guid, SessionLink>()
  for (const f of facts) {
    const kept = latest.get(f.sessionId)
    if (kept === undefined || later(f, kept)) latest.set(f.sessionId, f)
  }
  return latest
}

/** Two disjoint sets of sessions as one (the minimum of no session is 0, as the definition answers). */
export const addSessionTotals = (a: SessionTotals, b: SessionTotals): SessionTotals => ({
  sessions: a.sessions + b.sessions,
  guestSessions: a.guestSessions + b.guestSessions,
  userSessions: a.userSessions + b.userSessions,
  totalDurationSeconds: a.totalDurationSeconds + b.totalDurationSeconds,
  minDurationSeconds: a.sessions === 0 ? b.minDurationSeconds : b.sessions === 0 ? a.minDurationSeconds : Math.min(a.minDurationSeconds, b.minDurationSeconds),
  maxDurationSeconds: Math.max(a.maxDurationSeconds, b.maxDurationSeconds),
})

export const addViewTotals = (a: ViewTotals, b: ViewTotals): ViewTotals => ({
  views: a.views + b.views,
  closedViews: a.closedViews + b.closedViews,
  totalViewSeconds: a.totalViewSeconds + b.totalViewSeconds,
})
