import type { DayRecord, DayStamp, DayWrites, DeveloperView } from '../../domain/day-records.js'
import type { Guid } from '../../domain/guid.js'
import type { DayNumber, SessionLink } from '../../domain/serving-links.js'

/** A day's record with the stamp of what it was computed from. */
export interface StoredDayRecord extends DayRecord {
  readonly stamp: DayStamp
}

/** What domain/day-records.ts's dayRecords computes the records of a run of days from. */
export interface DayRecordInputs {
  readonly views: readonly DeveloperView[]
  readonly facts: readonly SessionLink[]
}

/**
 * The developer-day records of session metrics (domain/day-records.ts), the per-day write counts
 * that stamp them, and the serving-row reads they are computed from. Every call is one developer's
 * and costs its days, never the developer's whole history. Failures throw a StoreError.
 */
export interface DayRecordStore {
  /** The developer's per-day write counts (view rows by EventTime day, session rows by counted day) on [first, last], and the removal token. */
  dayWrites(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DayWrites>
  /** The developer's stored records of [first, last]: of each day, the one of the highest stamp. */
  records(developerId: Guid, first: DayNumber, last: DayNumber): Promise<StoredDayRecord[]>
  /**
   * From the serving rows under the developer's key: the developer's views (winning row the
   * developer's) on [first, last]; the session rows of the sessions they name, at least each one's
   * latest (by IngestionTime, then FactId) with the earliest EventTime (StartedAt) of its rows; and
   * the developer's earlier views of those sessions from the first day of their spans (the day of
   * their earliest StartedAt − 1 h), at most RECORD_LOOKBACK_DAYS before `first`. More views and
   * rows than that change nothing. Undefined when the developer's views of [first − 1, last] are
   * more than `maxViews`: a computation reads them into the process.
   */
  recordInputs(developerId: Guid, first: DayNumber, last: DayNumber, maxViews: number): Promise<DayRecordInputs | undefined>
  /** Appends records; a day's reads see the one of the highest stamp. */
  storeRecords(developerId: Guid, records: readonly StoredDayRecord[]): Promise<void>
}
