import type { Guid } from '../../domain/guid.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { DayItem, DaySummary, SessionState, ViewState } from '../../domain/session-states.js'

export interface SessionKey {
  readonly developerId: Guid
  readonly sessionId: Guid
}

export interface ViewKey {
  readonly developerId: Guid
  readonly viewId: Guid
}

export interface DeveloperDay {
  readonly developerId: Guid
  readonly day: DayNumber
}

/** A stored state's highest version, with every day any of its versions counted it on. */
export interface Latest<S> {
  readonly state: S
  readonly days: readonly DayNumber[]
}

export interface LatestStates {
  readonly sessions: readonly Latest<SessionState>[]
  readonly views: readonly Latest<ViewState>[]
}

/** A view of a developer's key whose any stored state named the session. */
export interface SessionView extends SessionKey {
  readonly view: Latest<ViewState>
}

/**
 * The per-developer view and session states and day summaries kept beside the serving tables
 * (domain/session-states.ts), and the serving-row lookups their recomputation needs. Every lookup
 * is by developer and id, so it costs what the batch touched; a day's summary costs the items on
 * it. Failures throw a StoreError.
 */
export interface SessionDaysIndex {
  /** Every serving row under each developer of each view (whatever developer the rows carry). */
  viewRows(views: readonly ViewKey[]): Promise<ServingViewRow[]>
  /** Every serving session fact under each developer of the session. */
  sessionFacts(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]>
  /** Appends view states; a view's reads see the one of the highest version. */
  writeViewStates(states: readonly ViewState[]): Promise<void>
  /** Every view under each developer whose any stored state named the session, with its latest state. */
  sessionViews(sessions: readonly SessionKey[]): Promise<SessionView[]>
  /** Appends session states; a session's reads see the one of the highest version. */
  writeSessionStates(states: readonly SessionState[]): Promise<void>
  /** The latest stored state of each session and view that has one, with every day any of its stored states counted it on. */
  latestStates(sessions: readonly SessionKey[], views: readonly ViewKey[]): Promise<LatestStates>
  /** Appends day items; a (day, item)'s reads see the one of the highest version. */
  writeDayItems(items: readonly DayItem[]): Promise<void>
  /**
   * Appends each developer-day's summary as domain/session-states.ts's daySummary computes it from
   * the day's stored items (the store may compute it where they are); a day's reads see the
   * summary of the highest version.
   */
  summarizeDays(days: readonly DeveloperDay[]): Promise<void>
  /** The developer's latest summaries of the days [first, last]. */
  summaries(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DaySummary[]>
  /** The latest states of the developer's sessions counted on a day of [first, last] with view days after it. */
  spanning(developerId: Guid, first: DayNumber, last: DayNumber): Promise<SessionState[]>
}
