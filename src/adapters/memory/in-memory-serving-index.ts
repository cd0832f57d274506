import type { ServingIndex } from '../../application/ports/serving-index.port.js'
import type { DeveloperSource, DeveloperWrite } from '../../domain/developer-writes.js'
import { EMPTY_GUID, type Guid } from '../../domain/guid.js'
import { dayOf, sessionDays, storedTime, type DayedSessionLink, type DayNumber, type ServingSessionRow, type ServingViewRow, type SessionDeveloperLink, type ViewLink } from '../../domain/serving-links.js'
import type { InMemoryTables } from './in-memory-tables.js'

/**
 * The serving tables in memory, with lookups that see exactly what migration 0008's link tables
 * hold (a view under the day of its EventTime, a session fact under its sessionDays), so the
 * in-memory store finds no more than ClickHouse would. Each lookup reads the facts of its ids
 * through the tables' id indexes, never every fact.
 */
export class InMemoryServingIndex implements ServingIndex {
  constructor(private readonly tables: InMemoryTables) {}

  async viewLinks(days: readonly DayNumber[], viewIds: readonly Guid[]): Promise<ViewLink[]> {
    const onDays = new Set(days)
    return distinct(viewIds)
      .flatMap((id) => this.tables.viewFactsOf(id))
      .filter(({ fact }) => onDays.has(dayOf(fact.row.eventTime)))
      .map(({ fact: { row }, ingestionTime }) => ({
        propertyObjectViewId: row.propertyObjectViewId, factId: row.factId, developerId: row.developerId, sessionId: row.sessionId,
        isClosed: row.isClosed, durationSeconds: row.durationSeconds ?? 0, eventTime: row.eventTime, ingestionTime: storedTime(ingestionTime),
      }))
  }

  async sessionDevelopers(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<SessionDeveloperLink[]> {
    const onDays = new Set(days)
    return distinct(sessionIds)
      .filter((id) => id !== EMPTY_GUID)
      .flatMap((id) => this.tables.viewFactsNaming(id))
      .map(({ fact: { row } }) => ({ day: dayOf(row.eventTime), sessionId: row.sessionId, developerId: row.developerId }))
      .filter((l) => onDays.has(l.day))
  }

  async sessionLinks(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<DayedSessionLink[]> {
    const onDays = new Set(days)
    return distinct(sessionIds)
      .flatMap((id) => this.tables.sessionFactsOf(id))
      .flatMap(({ fact: { row }, ingestionTime }) =>
        sessionDays(row.startedAt, row.lastActivityAt)
          .filter((day) => onDays.has(day))
          .map((day) => ({
            day, sessionId: row.sessionId, factId: row.factId, durationSeconds: row.durationSeconds, viewerKind: row.viewerKind,
            eventTime: row.eventTime, ingestionTime: storedTime(ingestionTime),
          })),
      )
  }

  async write(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> {
    this.tables.serving.views.push(...views)
    this.tables.serving.sessions.push(...sessions)
  }

  async written(writes: readonly DeveloperWrite[]): Promise<void> {
    for (const w of writes) {
      const key = dayWriteKey(w.source, w.keyDeveloperId, w.day)
      this.tables.dayWrites.set(key, (this.tables.dayWrites.get(key) ?? 0) + w.rows)
    }
  }
}

export const dayWriteKey = (source: DeveloperSource, developerId: Guid, day: DayNumber): string => `${source}|${developerId}|${day}`

const distinct = (ids: readonly Guid[]): Guid[] => [...new Set(ids)]
