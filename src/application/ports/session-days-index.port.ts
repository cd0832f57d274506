import type { Guid } from '../../domain/guid.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { DaySummary, SessionState } from '../../domain/session-states.js'

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

/** A session state stored as a candidate of a day: some stored state of it counted it on that day. */
export interface DayCandidate extends DeveloperDay {
  /** The session's latest stored state (the highest version). */
  readonly state: SessionState
}

/**
 * The per-developer session states and day summaries kept beside the serving tables
 * (domain/session-states.ts), and the serving-row lookups their recomputation needs. Every lookup
 * is by developer and id or day, so it costs what the batch touched. Failures throw a StoreError.
 */
export interface SessionDaysIndex {
  /** Every serving row under each developer of each view (whatever developer the rows carry). */
  viewRows(views: readonly ViewKey[]): Promise<ServingViewRow[]>
  /** Every serving view row under each developer of every view with a row under it naming the session. */
  sessionViewRows(sessions: readonly SessionKey[]): Promise<ServingViewRow[]>
  /** Every serving session fact under each developer of the session. */
  sessionFacts(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]>
  /** Appends states; a session's reads see the one of the highest version. */
  writeStates(states: readonly SessionState[]): Promise<void>
  /** Every day any stored state of these sessions counted them on (the candidates' days). */
  countedDays(sessions: readonly SessionKey[]): Promise<DeveloperDay[]>
  /** For each developer-day, the latest state of every session any stored state counted on it. */
  dayCandidates(days: readonly DeveloperDay[]): Promise<DayCandidate[]>
  /** The developer's serving view rows (under its key) with EventTime within a day of each day. */
  dayViewRows(days: readonly DeveloperDay[]): Promise<ServingViewRow[]>
  /** Appends summaries; a day's reads see the one of the highest version. */
  writeSummaries(summaries: readonly DaySummary[]): Promise<void>
  /** The developer's latest summaries of the days [first, last]. */
  summaries(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DaySummary[]>
  /** The latest states of the developer's sessions counted on a day of [first, last] with view days after it. */
  spanning(developerId: Guid, first: DayNumber, last: DayNumber): Promise<SessionState[]>
}
