import type { Guid } from './guid.js'
import { dayOf, SESSION_LINK_MAX_DAYS, type DayNumber, type SessionLink, type ViewLink } from './serving-links.js'
import { addSessionTotals, addViewTotals, developerViews, latestSessionFacts, type SessionTotals, type ViewTotals } from './session-days.js'

/**
 * The day parts of session-days.ts kept at ingest (issue 45): each step that writes serving rows
 * recomputes the state of every (developer, session) it touched and then the summary of every
 * (developer, day) those states or its view rows touched, from the serving rows as stored.
 *
 * Rows are only ever added (a redelivered row replaces its twin with a later IngestionTime), so a
 * computation's inputs grow over time, and its version measures them: the sum, over the distinct
 * rows it read, of each row's latest IngestionTime second. A later snapshot has at least as many
 * rows, each at least as late, so its version is at least as high, and equal only for the same
 * inputs, hence the same result. Stored states and summaries keep the highest version: of two
 * instances racing, the one that reads last saw both writes (each stores before it reads), and its
 * result is kept whatever the order the two are stored in.
 */

/** What the day parts count of one developer's session, from the serving rows under the developer's key. */
export interface SessionState {
  readonly developerId: Guid
  readonly sessionId: Guid
  /** The UTC days of the developer's views of the session, ascending; empty when it is not one of the developer's counted sessions (no view of it is the developer's, or it has no fact). */
  readonly viewDays: readonly DayNumber[]
  readonly durationSeconds: number
  readonly viewerKind: 'Guest' | 'User'
  readonly version: number
}

/** A developer's summary of one UTC day: its sessions (each counted on its first view day) and its views. */
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

const viewRowKey = (r: ViewLink) => `${r.propertyObjectViewId}|${r.factId}|${r.developerId}`

/**
 * The state of `sessionId` for `developerId` from the serving rows under the developer's key:
 * `viewRows` must hold every row of every view with a row naming the session (more rows are
 * ignored), `facts` every session fact of it. Those are what it depends on and what its version counts.
 */
export const sessionState = (developerId: Guid, sessionId: Guid, viewRows: Iterable<ViewLink>, facts: Iterable<SessionLink>): SessionState => {
  const rows = [...viewRows]
  const named = new Set(rows.filter((r) => r.sessionId === sessionId).map((r) => r.propertyObjectViewId))
  const inputs = rows.filter((r) => named.has(r.propertyObjectViewId))
  const own = [...facts].filter((f) => f.sessionId === sessionId)
  const version = versionOf(inputs, viewRowKey) + versionOf(own, (f) => f.factId)
  const latest = latestSessionFacts(own).get(sessionId)
  const days = [...new Set(developerViews(developerId, inputs).filter((v) => v.sessionId === sessionId).map((v) => dayOf(v.eventTime)))].sort((a, b) => a - b)
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

/** The days whose view part a stored view row on `day` can change (its view's other rows lie within a day of it). */
export const viewSummaryDays = (day: DayNumber): DayNumber[] => (day === 0 ? [0, 1] : [day - 1, day, day + 1])

/**
 * The summary of `day` for `developerId`: `candidates` are the latest states of every session that
 * any stored state ever counted on the day, each once (those counted there now add to it, all add
 * their versions), `viewRows` the developer's serving rows (under its key) of the days around it; rows
 * outside [day - 1, day + 1] are ignored.
 */
export const daySummary = (developerId: Guid, day: DayNumber, candidates: Iterable<SessionState>, viewRows: Iterable<ViewLink>): DaySummary => {
  const states = [...new Map([...candidates].map((s) => [s.sessionId, s])).values()]
  const rows = [...viewRows].filter((r) => Math.abs(dayOf(r.eventTime) - day) <= 1)
  const views = developerViews(developerId, rows)
    .filter((v) => dayOf(v.eventTime) === day)
    .reduce<ViewTotals>((t, v) => addViewTotals(t, { views: 1, closedViews: v.isClosed ? 1 : 0, totalViewSeconds: v.isClosed ? v.durationSeconds : 0 }), noViews)
  const version = states.reduce((sum, s) => sum + s.version, 0) + versionOf(rows, viewRowKey)
  return { developerId, day, sessions: sessionTotalsOf(states.filter((s) => firstDayOf(s) === day)), views, version }
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
