import type { Guid } from './guid.js'
import type { Instant } from './instant.js'

/**
 * Spec §8, cost of a read: the developer-keyed serving rows and the rules that keep them whole.
 * A session and its views arrive on different topics in any order, so each side, after its own
 * facts are stored, looks the other side up in link tables keyed by UTC day (so every lookup is
 * bounded by the batch and its days, never by history) and writes what the other side needs:
 *   - a view row goes under every developer any row of its view carries (the winner is decided
 *     among the developer's own rows, as domain/view-merge.ts ranks them);
 *   - a session fact goes under the developer of every view row naming its session.
 * Of two batches racing, at least one sees the other, because each stores before it looks.
 * Assumed of the producers (what makes the days enough): the rows of a view carry ViewedAt times
 * at most a day apart, and a view happens within its session, an hour of clock skew allowed
 * ([StartedAt - 1 h, LastActivityAt + 1 h], at most 32 days from its start). An open view without
 * a SessionId (the empty id) is linked to no session, as no session fact carries that id.
 */

const DAY_SECONDS = 86_400
export const SESSION_LINK_MARGIN_SECONDS = 3_600
export const SESSION_LINK_MAX_DAYS = 32

/** A UTC day as a day number since 1970-01-01 (what ClickHouse's Date holds). */
export type DayNumber = number

const second = (t: Instant): number => Math.floor(t / 1000)
export const dayOf = (t: Instant): DayNumber => Math.floor(second(t) / DAY_SECONDS)
export const dayText = (d: DayNumber): string => new Date(d * DAY_SECONDS * 1000).toISOString().slice(0, 10)

/** The first day and the number of days of [StartedAt - 1 h, LastActivityAt + 1 h], before any cap. */
export const sessionSpan = (startedAt: Instant, lastActivityAt: Instant): { readonly first: DayNumber; readonly days: number } => {
  const start = second(startedAt)
  const first = Math.floor((Math.max(start, SESSION_LINK_MARGIN_SECONDS) - SESSION_LINK_MARGIN_SECONDS) / DAY_SECONDS)
  const last = Math.floor((Math.max(second(lastActivityAt), start) + SESSION_LINK_MARGIN_SECONDS) / DAY_SECONDS)
  return { first, days: last - first + 1 }
}

/** The days a session fact is linked under; migration 0008's session_links_mv computes the same. */
export const sessionDays = (startedAt: Instant, lastActivityAt: Instant): DayNumber[] => {
  const { first, days } = sessionSpan(startedAt, lastActivityAt)
  return linkDays(first, first + days - 1)
}

/** first..through, within the first SESSION_LINK_MAX_DAYS. */
const linkDays = (first: DayNumber, through: DayNumber): DayNumber[] =>
  Array.from({ length: Math.min(SESSION_LINK_MAX_DAYS, through - first + 1) }, (_, i) => first + i)

/**
 * The days a session fact's copies are looked up and counted on: its linked days, and on to the
 * day of its storing (+ 1 h, as far ahead as a view stored before it can be) within its first
 * SESSION_LINK_MAX_DAYS. A later fact of a session with a shorter span (an older version delivered
 * late) thus still reaches the views stored on the days it left, and stales their day records.
 * A fact stored within its span's days (the common case) reaches only those.
 */
export const sessionReachDays = (startedAt: Instant, lastActivityAt: Instant, storedAt: Instant): DayNumber[] => {
  const { first, days } = sessionSpan(startedAt, lastActivityAt)
  return linkDays(first, Math.max(first + days - 1, dayOf(storedAt + SESSION_LINK_MARGIN_SECONDS * 1000)))
}

/**
 * The days a copy of a stored session fact, written under a developer for a view of it, is counted
 * on: from its session's first day on to the day of storing (+ 1 h), within its first
 * SESSION_LINK_MAX_DAYS. The developer's other views of the session, on other days, are stored by
 * then, and their days' records now read this copy.
 */
export const sessionCopyDays = (startedAt: Instant, storedAt: Instant): DayNumber[] => sessionReachDays(startedAt, startedAt, storedAt)

/** The days in which the other rows of a view are looked for. */
export const viewNeighbourDays = (eventTime: Instant): DayNumber[] => {
  const d = dayOf(eventTime)
  return d === 0 ? [0, 1] : [d - 1, d, d + 1]
}

/** A view fact as the link and serving tables hold it (DurationSeconds 0 for an open row). */
export interface ViewLink {
  readonly propertyObjectViewId: Guid
  readonly factId: string
  readonly developerId: Guid
  readonly sessionId: Guid
  readonly isClosed: boolean
  readonly durationSeconds: number
  readonly eventTime: Instant
  /** As stored: whole seconds (in milliseconds). */
  readonly ingestionTime: Instant
}

/** A session fact as the link and serving tables hold it. */
export interface SessionLink {
  readonly sessionId: Guid
  readonly factId: string
  readonly durationSeconds: number
  readonly viewerKind: 'Guest' | 'User'
  readonly eventTime: Instant
  readonly ingestionTime: Instant
}

/** A session fact with the days it is linked under (what a session_links lookup returns, one day per row). */
export interface DayedSessionLink extends SessionLink {
  readonly day: DayNumber
}

/** A developer whose view rows name a session on a day (what a session_view_links lookup returns). */
export interface SessionDeveloperLink {
  readonly day: DayNumber
  readonly sessionId: Guid
  readonly developerId: Guid
}

export interface ServingViewRow extends ViewLink {
  readonly keyDeveloperId: Guid
}

export interface ServingSessionRow extends SessionLink {
  readonly keyDeveloperId: Guid
}

/** IngestionTime as a store of whole seconds keeps it. */
export const storedTime = (t: Instant): Instant => second(t) * 1000
