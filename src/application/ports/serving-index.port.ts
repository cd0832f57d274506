import type { Guid } from '../../domain/guid.js'
import type { DeveloperWrite } from '../../domain/developer-writes.js'
import type { DayedSessionLink, DayNumber, ServingSessionRow, ServingViewRow, SessionDeveloperLink, ViewLink } from '../../domain/serving-links.js'

/**
 * The developer-keyed serving tables and the link tables they are kept with (domain/serving-links.ts).
 * Lookups are by UTC day and id, so they cost what the batch and its days hold, never what the
 * store has gathered over time. Failures throw a StoreError.
 */
export interface ServingIndex {
  /** Stored rows of these views whose EventTime falls on one of these days. */
  viewLinks(days: readonly DayNumber[], viewIds: readonly Guid[]): Promise<ViewLink[]>
  /** The developers of stored view rows naming these sessions on these days. */
  sessionDevelopers(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<SessionDeveloperLink[]>
  /** Stored session facts of these sessions linked under one of these days, one element per (fact, day). */
  sessionLinks(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<DayedSessionLink[]>
  /** Appends serving rows, each with its own IngestionTime; a repeated row collapses like a redelivered fact. */
  write(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void>
  /**
   * Raises the per-developer write counts (developer_day_writes): per day, what the day records
   * are stamped with, and each source's total, what the read cache versions answers by, in one
   * insert. Called only after the rows counted were stored (their inserts returned), so a count
   * is never visible before the data it counts.
   */
  written(writes: readonly DeveloperWrite[]): Promise<void>
}
