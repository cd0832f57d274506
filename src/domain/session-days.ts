import type { Guid } from './guid.js'
import { dayOf, type DayNumber, type SessionLink, type ViewLink } from './serving-links.js'
import { mergeViews } from './view-merge.js'

/**
 * Spec §8's session metrics of whole UTC days as a sum of per-day parts (issue 45), so that a read
 * of N days costs N parts and not the developer's sessions. Views add up by day as they are: a
 * view counts on the day of its winning row. Sessions do not: one session's views can fall on
 * several days (midnight, long sessions), and a period counts it once. Each session of a developer
 * is therefore counted on one day only, the first day of the developer's views of it; a period
 * [first, last] adds the parts of its days and then the sessions that span days, began before
 * `first` and have a view inside the period (the edge: the few sessions running over the period's
 * first midnight). The answer equals the definition's for every developer and whole-day period.
 */

/** A developer's session as the parts count it. */
export interface DeveloperSession {
  readonly sessionId: Guid
  /** The UTC days of the developer's views of the session (the views whose winning row is the developer's), ascending, distinct. */
  readonly viewDays: readonly DayNumber[]
  /** Of the session's latest fact (by IngestionTime, then FactId). */
  readonly durationSeconds: number
  readonly viewerKind: 'Guest' | 'User'
}

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

export interface SessionDayPart extends SessionTotals {
  readonly day: DayNumber
}

export interface ViewDayPart extends ViewTotals {
  readonly day: DayNumber
}

/** What a read of whole days needs of a developer: the parts by day and the sessions that span days. */
export interface DeveloperDayParts {
  readonly sessions: readonly SessionDayPart[]
  readonly views: readonly ViewDayPart[]
  readonly spanning: readonly DeveloperSession[]
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

/** The developer's sessions: those its views name that have a fact (a session without one is not counted, as in the definition). */
export const developerSessions = (views: readonly ViewLink[], facts: Iterable<SessionLink>): DeveloperSession[] => {
  const days = new Map<Guid, Set<DayNumber>>()
  for (const v of views) days.set(v.sessionId, (days.get(v.sessionId) ?? new Set()).add(dayOf(v.eventTime)))
  const latest = latestSessionFacts(facts)
  return [...days].flatMap(([sessionId, d]) => {
    const fact = latest.get(sessionId)
    if (fact === undefined) return []
    return [{ sessionId, viewDays: [...d].sort((a, b) => a - b), durationSeconds: fact.durationSeconds, viewerKind: fact.viewerKind }]
  })
}

const noSessions: SessionTotals = { sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0 }

const addSession = (t: SessionTotals, s: DeveloperSession): SessionTotals => addSessionTotals(t, {
  sessions: 1,
  guestSessions: s.viewerKind === 'Guest' ? 1 : 0,
  userSessions: s.viewerKind === 'User' ? 1 : 0,
  totalDurationSeconds: s.durationSeconds,
  minDurationSeconds: s.durationSeconds,
  maxDurationSeconds: s.durationSeconds,
})

/** Two disjoint sets of sessions as one (the minimum of no session is 0, as the definition answers). */
export const addSessionTotals = (a: SessionTotals, b: SessionTotals): SessionTotals => ({
  sessions: a.sessions + b.sessions,
  guestSessions: a.guestSessions + b.guestSessions,
  userSessions: a.userSessions + b.userSessions,
  totalDurationSeconds: a.totalDurationSeconds + b.totalDurationSeconds,
  minDurationSeconds: a.sessions === 0 ? b.minDurationSeconds : b.sessions === 0 ? a.minDurationSeconds : Math.min(a.minDurationSeconds, b.minDurationSeconds),
  maxDurationSeconds: Math.max(a.maxDurationSeconds, b.maxDurationSeconds),
})

const noViews: ViewTotals = { views: 0, closedViews: 0, totalViewSeconds: 0 }

export const addViewTotals = (a: ViewTotals, b: ViewTotals): ViewTotals => ({
  views: a.views + b.views,
  closedViews: a.closedViews + b.closedViews,
  totalViewSeconds: a.totalViewSeconds + b.totalViewSeconds,
})

/** The parts of a developer from its views and the facts of their sessions. */
export const dayParts = (views: readonly ViewLink[], facts: Iterable<SessionLink>): DeveloperDayParts => {
  const sessions = developerSessions(views, facts)
  const byFirstDay = new Map<DayNumber, SessionTotals>()
  for (const s of sessions) {
    const first = s.viewDays[0] as DayNumber
    byFirstDay.set(first, addSession(byFirstDay.get(first) ?? noSessions, s))
  }
  const byViewDay = new Map<DayNumber, ViewTotals>()
  for (const v of views) {
    const day = dayOf(v.eventTime)
    byViewDay.set(day, addViewTotals(byViewDay.get(day) ?? noViews, { views: 1, closedViews: v.isClosed ? 1 : 0, totalViewSeconds: v.isClosed ? v.durationSeconds : 0 }))
  }
  return {
    sessions: [...byFirstDay].map(([day, t]) => ({ day, ...t })),
    views: [...byViewDay].map(([day, t]) => ({ day, ...t })),
    spanning: sessions.filter((s) => s.viewDays.length > 1),
  }
}

/** The totals of the days [first, last] from the parts: the days' own, and the sessions begun before `first` with a view inside. */
export const totalsOfDays = (parts: DeveloperDayParts, first: DayNumber, last: DayNumber): { readonly sessions: SessionTotals; readonly views: ViewTotals } => {
  const inside = (day: DayNumber) => day >= first && day <= last
  let sessions = parts.sessions.filter((p) => inside(p.day)).reduce<SessionTotals>((t, p) => addSessionTotals(t, p), noSessions)
  for (const s of parts.spanning) {
    if ((s.viewDays[0] as DayNumber) < first && s.viewDays.some(inside)) sessions = addSession(sessions, s)
  }
  const views = parts.views.filter((p) => inside(p.day)).reduce<ViewTotals>((t, p) => addViewTotals(t, p), noViews)
  return { sessions, views }
}
