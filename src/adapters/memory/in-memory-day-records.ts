import type { DayRecordInputs, DayRecordStore, StoredDayRecord } from '../../application/ports/day-records.port.js'
import { RECORD_LOOKBACK_DAYS, type DayWrites } from '../../domain/day-records.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf, type DayNumber } from '../../domain/serving-links.js'
import { developerViews } from '../../domain/session-totals.js'
import { dayWriteKey } from './in-memory-serving-index.js'
import type { InMemoryTables } from './in-memory-tables.js'

/**
 * Day records in memory, over the serving rows and per-day write counts of InMemoryTables: a day
 * keeps the record stored last, as migration 0012's table does. The inputs are computed
 * from every serving row under the developer's key (a superset of what the port asks for).
 */
export class InMemoryDayRecords implements DayRecordStore {
  constructor(private readonly tables: InMemoryTables) {}

  async dayWrites(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DayWrites> {
    const views = new Map<DayNumber, number>()
    const sessions = new Map<DayNumber, number>()
    for (let day = first; day <= last; day++) {
      const v = this.tables.dayWrites.get(dayWriteKey('views', developerId, day))
      const s = this.tables.dayWrites.get(dayWriteKey('sessions', developerId, day))
      if (v !== undefined) views.set(day, v)
      if (s !== undefined) sessions.set(day, s)
    }
    return { views, sessions, removals: { months: new Map(), other: '' }, counted: true }
  }

  async records(developerId: Guid, first: DayNumber, last: DayNumber): Promise<StoredDayRecord[]> {
    const found: StoredDayRecord[] = []
    for (let day = first; day <= last; day++) {
      const r = this.tables.dayRecords.get(`${developerId}|${day}`)
      if (r) found.push(r)
    }
    return found
  }

  async recordInputs(developerId: Guid, first: DayNumber, last: DayNumber, maxViews: number): Promise<DayRecordInputs | undefined> {
    const rows = this.tables.serving.views.filter((r) => r.keyDeveloperId === developerId)
    const views = developerViews(developerId, rows)
      .map((v) => ({ sessionId: v.sessionId, day: dayOf(v.eventTime), isClosed: v.isClosed, durationSeconds: v.durationSeconds }))
      .filter((v) => v.day >= first - RECORD_LOOKBACK_DAYS && v.day <= last)
    if (views.filter((v) => v.day >= first - 1).length > maxViews) return undefined
    const facts = this.tables.serving.sessions.filter((r) => r.keyDeveloperId === developerId)
    return { views, facts }
  }

  async storeRecords(developerId: Guid, records: readonly StoredDayRecord[]): Promise<void> {
    for (const r of records) this.tables.dayRecords.set(`${developerId}|${r.day}`, r)
  }
}
