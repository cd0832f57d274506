import { EMPTY_GUID, type Guid } from './guid.js'
import { dayOf, SESSION_LINK_MAX_DAYS, type DayNumber, type SessionLink, type ViewLink } from './serving-links.js'
import { addSessionTotals, addViewTotals, latestSessionFacts, type SessionTotals, type ViewTotals } from './session-days.js'
import { mergeViews } from './view-merge.js'

/**
 * The day parts of session-days.ts kept at ingest (issue 45), in levels each recomputed from the
 * one below as stored, never adjusted: the state of every (developer key, view) a batch wrote rows
 * of, from the view's serving rows; the state of every (developer, session) those views name or
 * the batch's facts are of, from its views' states and its facts; the day items of both, placed by
 * their latest states; the summary of every (developer, day) they fall on, from the day's items. A
 * step reads what the batch touched and the touched days' items, never a developer's rows.
 *
 * Inputs only grow (rows are only added; a redelivered row replaces its twin with a later
 * IngestionTime; a state's inputs are the latest states of a growing set), and a version measures
 * them: for a view, the sum over its distinct rows of each one's latest IngestionTime second; above
 * it, the sum of the inputs' versions. A later snapshot's version is at least as high, and equal
 * only for the same inputs, hence the same result. Reads keep the highest version: of two
 * instances racing, the one that reads last saw both writes (each stores before it reads), and its
 * result is kept whatever the order the two are stored in.
 */

/** What the day parts count of one view under a developer's key: its winning row (domain/view-merge.ts). */
export interface ViewState {
  readonly developerId: Guid
  readonly viewId: Guid
  /** The winner's UTC day when the winner is the developer's (a view of the developer's), else undefined. */
  readonly day: DayNumber | undefined
  /** The winner's session (the empty id for an open view without one). */
  readonly sessionId: Guid
  readonly isClosed: boolean
  readonly durationSeconds: number
  readonly version: number
}

/** What the day parts count of one developer's session, from the states of its views and its facts. */
export interface SessionState {
  readonly developerId: Guid
  readonly sessionId: Guid
  /** The UTC days of the developer's views of the session, ascending; empty when it is not one of the developer's counted sessions (no view of it is the developer's, or it has no fact). */
  readonly viewDays: readonly DayNumber[]
  readonly durationSeconds: number
  readonly viewerKind: 'Guest' | 'User'
  readonly version: number
}

/** A developer's summary of one UTC day: its sessions (each counted on its first view day) and its views (each on its winner's day). */
export interface DaySummary {
  readonly developerId: Guid
  readonly day: DayNumber
  readonly sessions: SessionTotals
  readonly views: ViewTotals
  readonly version: number
}

/** How far before a period a session counted on its first day can have a view inside the period. */
export const SPANNING_LOOKBACK_DAYS = SESSION_LINK_MAX_DAYS + 1

export const firstDayOf = (s: SessionState): DayNumber | undefined => s.viewDays[0]

const second = (t: number): number => Math.floor(t / 1000)

/** The version of a set of rows read: Σ over distinct keys of the key's latest IngestionTime second. */
const versionOf = <R extends { readonly ingestionTime: number }>(rows: Iterable<R>, key: (r: R) => string): number => {
  const latest = new Map<string, number>()
  for (const r of rows) {
    const k = key(r)
    latest.set(k, Math.max(latest.get(k) ?? 0, second(r.ingestionTime)))
  }
  let sum = 0
  for (const s of latest.values()) sum += s
  return sum
}

const sumOf = (versions: Iterable<{ readonly version: number }>): number => {
  let sum = 0
  for (const v of versions) sum += v.version
  return sum
}

/** The state of `viewId` under `developerId`'s key from every serving row of the view under it (others are ignored). */
export const viewState = (developerId: Guid, viewId: Guid, rows: Iterable<ViewLink>): ViewState => {
  const own = [...rows].filter((r) => r.propertyObjectViewId === viewId)
  const version = versionOf(own, (r) => `${r.factId}|${r.developerId}`)
  const winner = mergeViews(own, (r) => r.propertyObjectViewId, (r) => ({ isClosed: r.isClosed, ingestionSecond: second(r.ingestionTime), factId: r.factId, developerId: r.developerId })).get(viewId)
  if (winner === undefined) return { developerId, viewId, day: undefined, sessionId: EMPTY_GUID, isClosed: false, durationSeconds: 0, version }
  return {
    developerId, viewId, day: winner.developerId === developerId ? dayOf(winner.eventTime) : undefined, sessionId: winner.sessionId,
    isClosed: winner.isClosed, durationSeconds: winner.isClosed ? winner.durationSeconds : 0, version,
  }
}

/**
 * The state of `sessionId` for `developerId`: `views` must hold the latest state of every view of
 * the developer's key whose any stored state named the session, each once (the others count in
 * its version only), `facts` every session fact of it. Those are what it depends on and what its
 * version counts.
 */
export const sessionState = (developerId: Guid, sessionId: Guid, views: Iterable<ViewState>, facts: Iterable<SessionLink>): SessionState => {
  const states = [...views]
  const own = [...facts].filter((f) => f.sessionId === sessionId)
  const version = sumOf(states) + versionOf(own, (f) => f.factId)
  const latest = latestSessionFacts(own).get(sessionId)
  const days = [...new Set(states.flatMap((v) => (v.sessionId === sessionId && v.day !== undefined ? [v.day] : [])))].sort((a, b) => a - b)
  if (latest === undefined || days.length === 0) return { developerId, sessionId, viewDays: [], durationSeconds: 0, viewerKind: 'Guest', version }
  return { developerId, sessionId, viewDays: days, durationSeconds: latest.durationSeconds, viewerKind: latest.viewerKind, version }
}

const noSessions: SessionTotals = { sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0 }
const noViews: ViewTotals = { views: 0, closedViews: 0, totalViewSeconds: 0 }

export const sessionTotalsOf = (states: Iterable<SessionState>): SessionTotals => {
  let t = noSessions
  for (const s of states) {
    if (s.viewDays.length === 0) continue
    const d = s.durationSeconds
    t = addSessionTotals(t, { sessions: 1, guestSessions: s.viewerKind === 'Guest' ? 1 : 0, userSessions: s.viewerKind === 'User' ? 1 : 0, totalDurationSeconds: d, minDurationSeconds: d, maxDurationSeconds: d })
  }
  return t
}

/**
 * What one session or view adds to one day of a developer, placed by its latest state: counted on
 * the day it counts on now, and a zero row (`counted` false) on every other day any of its states
 * counted it on, so a day it left stops counting it. The highest version wins per (day, item).
 */
export interface DayItem {
  readonly developerId: Guid
  readonly day: DayNumber
  readonly kind: 'session' | 'view'
  readonly itemId: Guid
  readonly counted: boolean
  readonly guest: boolean
  readonly isClosed: boolean
  readonly durationSeconds: number
  readonly version: number
}

/** A session's items from its latest state, on every day any of its states counted it on (`days`). */
export const sessionDayItems = (latest: SessionState, days: Iterable<DayNumber>): DayItem[] => {
  const first = firstDayOf(latest)
  return [...new Set([...days, ...(first === undefined ? [] : [first])])].map((day) => ({
    developerId: latest.developerId, day, kind: 'session' as const, itemId: latest.sessionId, counted: day === first,
    guest: latest.viewerKind === 'Guest', isClosed: false, durationSeconds: latest.durationSeconds, version: latest.version,
  }))
}

/** A view's items from its latest state, on every day any of its states counted it on (`days`). */
export const viewDayItems = (latest: ViewState, days: Iterable<DayNumber>): DayItem[] =>
  [...new Set([...days, ...(latest.day === undefined ? [] : [latest.day])])].map((day) => ({
    developerId: latest.developerId, day, kind: 'view' as const, itemId: latest.viewId, counted: day === latest.day,
    guest: false, isClosed: latest.isClosed, durationSeconds: latest.durationSeconds, version: latest.version,
  }))

/**
 * The summary of `day` for `developerId` from the day's items (those of other days are ignored):
 * per item the one of the highest version, the counted ones added up; the version is the sum of
 * the items' highest versions.
 */
export const daySummary = (developerId: Guid, day: DayNumber, items: Iterable<DayItem>): DaySummary => {
  const latest = new Map<string, DayItem>()
  for (const i of items) {
    if (i.day !== day) continue
    const key = `${i.kind}|${i.itemId}`
    const kept = latest.get(key)
    if (kept === undefined || i.version > kept.version) latest.set(key, i)
  }
  let sessions = noSessions
  let views = noViews
  let version = 0
  for (const i of latest.values()) {
    version += i.version
    if (!i.counted) continue
    const d = i.durationSeconds
    if (i.kind === 'session') sessions = addSessionTotals(sessions, { sessions: 1, guestSessions: i.guest ? 1 : 0, userSessions: i.guest ? 0 : 1, totalDurationSeconds: d, minDurationSeconds: d, maxDurationSeconds: d })
    else views = addViewTotals(views, { views: 1, closedViews: i.isClosed ? 1 : 0, totalViewSeconds: d })
  }
  return { developerId, day, sessions, views, version }
}

/**
 * A whole-day period's totals from its days' summaries (the latest of each) and the latest states
 * of the sessions counted before `first` with several view days (`spanning`): those with a view
 * inside the period are the period's too.
 */
export const totalsOfSummaries = (
  summaries: Iterable<DaySummary>,
  spanning: Iterable<SessionState>,
  first: DayNumber,
  last: DayNumber,
): { readonly sessions: SessionTotals; readonly views: ViewTotals } => {
  let sessions = noSessions
  let views = noViews
  for (const s of summaries) {
    if (s.day < first || s.day > last) continue
    sessions = addSessionTotals(sessions, s.sessions)
    views = addViewTotals(views, s.views)
  }
  const before = [...spanning].filter((s) => (firstDayOf(s) ?? first) < first && s.viewDays.some((d) => d >= first && d <= last))
  return { sessions: addSessionTotals(sessions, sessionTotalsOf(before)), views }
}
