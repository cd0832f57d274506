import type { Guid } from './guid.js'
import { dayOf, SESSION_LINK_MAX_DAYS, type DayNumber, type SessionLink } from './serving-links.js'
import { addSessionTotals, addViewTotals, latestSessionFacts, type SessionTotals, type ViewTotals } from './session-totals.js'

/**
 * Spec §8's session metrics of whole UTC days as records of one developer-day each, computed when
 * a read needs a day and kept while the rows the day depends on are unchanged, so that a read of N
 * days costs N records plus the days written since their records were computed. Views add up by
 * day (a view counts on its winning row's day); a session counts once in a period, on the first day
 * of the developer's views of it, or as a carry-in when that day is before the period.
 *
 * A day D's record holds its views (each on its winning row's day), the sessions whose first view
 * day is D, and its carry-ins: the sessions with a view on D that began earlier. A session's views
 * lie within its span, [StartedAt − 1 h, LastActivityAt + 1 h], at most SESSION_LINK_MAX_DAYS
 * days: so D's record depends only on the developer's view rows from the day before its window's
 * first day to D + 1 (a view's rows lie within a day of one another), the window starting on the
 * earliest span day of D's counted sessions (D at the latest, RECORD_LOOKBACK_DAYS before at the
 * earliest), and on the session rows counted on D: the serving step counts a session row on every
 * day its fact reaches (its span and on to the day it was stored: serving-links.ts's
 * sessionReachDays; a copy written for a view, from the session's start: sessionCopyDays), D among them. A period [first, last] adds its days' records and each
 * carry-in of its first RECORD_LOOKBACK_DAYS days that began before `first`, once.
 */

/** How far before a day a session with a view on it can have begun. */
export const RECORD_LOOKBACK_DAYS = SESSION_LINK_MAX_DAYS + 1

/** The developer's view as the records count it: its winning row, when that row is the developer's. */
export interface DeveloperView {
  readonly sessionId: Guid
  readonly day: DayNumber
  readonly isClosed: boolean
  readonly durationSeconds: number
}

/** A session with a view on a day that began on an earlier day, with its latest fact. */
export interface CarryIn {
  readonly sessionId: Guid
  readonly firstDay: DayNumber
  readonly durationSeconds: number
  readonly viewerKind: 'Guest' | 'User'
}

export interface DayRecord {
  readonly day: DayNumber
  /** The first day of the view window the record depends on. */
  readonly windowFirst: DayNumber
  /** The sessions whose first view day is this one. */
  readonly sessions: SessionTotals
  readonly views: ViewTotals
  readonly carryIns: readonly CarryIn[]
}

/**
 * What a day's record was computed from, as counts that only grow: the view rows written under the
 * developer's key on [windowFirst − 1, day + 1], the session rows counted on the day, and a token
 * the removal of rows from those days changes. Equal stamps, equal records.
 */
export interface DayStamp {
  readonly viewWrites: number
  readonly sessionWrites: number
  readonly removals: string
}

/**
 * What removed rows (a dropped partition, a TRUNCATE, a mutation, a re-created table, rows written
 * outside the counts) changed, as tokens: one per month of the days' partitions ('YYYYMM') and one
 * for everything else, so a month's first insert or a dropped month stales only the records whose
 * windows reach into it.
 */
export interface Removals {
  readonly months: ReadonlyMap<string, string>
  readonly other: string
}

/** The write counts of a developer's days (DayNumber → rows), as the store holds them now. */
export interface DayWrites {
  readonly views: ReadonlyMap<DayNumber, number>
  readonly sessions: ReadonlyMap<DayNumber, number>
  readonly removals: Removals
  /**
   * False while rows may be written that raise no count (an instance of a build before the counts,
   * still running): records are then neither trusted nor stored, the serving rows answer.
   */
  readonly counted: boolean
}

/** The widest day range whose write counts the stamps of [first, last] read. */
export const stampDays = (first: DayNumber, last: DayNumber): { readonly first: DayNumber; readonly last: DayNumber } => ({ first: first - RECORD_LOOKBACK_DAYS - 1, last: last + 1 })

/** A UTC day's month as ClickHouse's toYYYYMM partitions name it. */
export const monthOf = (day: DayNumber): string => new Date(Math.max(0, day) * 86_400_000).toISOString().slice(0, 7).replace('-', '')

/** The stamp of a day's record whose view window starts on `windowFirst`, from the write counts now. */
export const stampOf = (writes: DayWrites, day: DayNumber, windowFirst: DayNumber): DayStamp => {
  let viewWrites = 0
  const months = new Set<string>()
  for (let d = windowFirst - 1; d <= day + 1; d++) {
    viewWrites += writes.views.get(d) ?? 0
    months.add(monthOf(d))
  }
  const removals = [writes.removals.other, ...[...months].map((m) => `${m}:${writes.removals.months.get(m) ?? ''}`)].join(' ')
  return { viewWrites, sessionWrites: writes.sessions.get(day) ?? 0, removals }
}

export const sameStamp = (a: DayStamp, b: DayStamp): boolean => a.viewWrites === b.viewWrites && a.sessionWrites === b.sessionWrites && a.removals === b.removals

const noSessions: SessionTotals = { sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0 }
const noViews: ViewTotals = { views: 0, closedViews: 0, totalViewSeconds: 0 }

const oneSession = (durationSeconds: number, viewerKind: 'Guest' | 'User'): SessionTotals => ({
  sessions: 1,
  guestSessions: viewerKind === 'Guest' ? 1 : 0,
  userSessions: viewerKind === 'User' ? 1 : 0,
  totalDurationSeconds: durationSeconds,
  minDurationSeconds: durationSeconds,
  maxDurationSeconds: durationSeconds,
})

const HOUR_MS = 3_600_000

/**
 * The records of the days [first, last] from the developer's views on [first − RECORD_LOOKBACK_DAYS,
 * last] (at least every view on [first, last] and every earlier one of a session those name) and
 * the session rows of their sessions under the developer's key (every row: a session fact's
 * EventTime is its StartedAt, and the earliest bounds where its views lie).
 */
export const dayRecords = (views: readonly DeveloperView[], facts: readonly SessionLink[], first: DayNumber, last: DayNumber): DayRecord[] => {
  const sessionDays = new Map<Guid, Set<DayNumber>>()
  for (const v of views) sessionDays.set(v.sessionId, (sessionDays.get(v.sessionId) ?? new Set()).add(v.day))
  const latest = latestSessionFacts(facts)
  const spanFirst = new Map<Guid, DayNumber>()
  for (const f of facts) spanFirst.set(f.sessionId, Math.min(spanFirst.get(f.sessionId) ?? Infinity, dayOf(f.eventTime - HOUR_MS)))
  const records = new Map<DayNumber, { windowFirst: DayNumber; sessions: SessionTotals; views: ViewTotals; carryIns: CarryIn[] }>()
  for (let day = first; day <= last; day++) records.set(day, { windowFirst: day, sessions: noSessions, views: noViews, carryIns: [] })
  for (const v of views) {
    const r = records.get(v.day)
    if (r) r.views = addViewTotals(r.views, { views: 1, closedViews: v.isClosed ? 1 : 0, totalViewSeconds: v.isClosed ? v.durationSeconds : 0 })
  }
  for (const [sessionId, days] of sessionDays) {
    const fact = latest.get(sessionId)
    if (fact === undefined) continue
    const firstDay = Math.min(...days)
    const spanStart = spanFirst.get(sessionId) ?? firstDay
    for (const day of days) {
      const r = records.get(day)
      if (!r) continue
      r.windowFirst = Math.max(day - RECORD_LOOKBACK_DAYS, Math.min(r.windowFirst, spanStart, firstDay))
      if (day === firstDay) r.sessions = addSessionTotals(r.sessions, oneSession(fact.durationSeconds, fact.viewerKind))
      else r.carryIns.push({ sessionId, firstDay, durationSeconds: fact.durationSeconds, viewerKind: fact.viewerKind })
    }
  }
  return [...records].map(([day, r]) => ({ day, ...r }))
}

const emptyRecord = (day: DayNumber): DayRecord => ({ day, windowFirst: day, sessions: noSessions, views: noViews, carryIns: [] })

/** Spec §8's totals of the days [first, last] from their records (a day without one has no views). */
export const totalsOfRecords = (records: Iterable<DayRecord>, first: DayNumber, last: DayNumber): { readonly sessions: SessionTotals; readonly views: ViewTotals } => {
  const byDay = new Map<DayNumber, DayRecord>()
  for (const r of records) if (r.day >= first && r.day <= last) byDay.set(r.day, r)
  let sessions = noSessions
  let views = noViews
  const carried = new Set<Guid>()
  for (let day = first; day <= last; day++) {
    const r = byDay.get(day) ?? emptyRecord(day)
    sessions = addSessionTotals(sessions, r.sessions)
    views = addViewTotals(views, r.views)
    if (day > first + RECORD_LOOKBACK_DAYS) continue
    for (const c of r.carryIns) {
      if (c.firstDay >= first || carried.has(c.sessionId)) continue
      carried.add(c.sessionId)
      sessions = addSessionTotals(sessions, oneSession(c.durationSeconds, c.viewerKind))
    }
  }
  return { sessions, views }
}
