import type { ClickHouseSettings } from '@clickhouse/client'
import type { ServingIndex } from '../../application/ports/serving-index.port.js'
import type { DeveloperWrite } from '../../domain/developer-writes.js'
import type { Guid } from '../../domain/guid.js'
import { dayText, type DayedSessionLink, type DayNumber, type ServingSessionRow, type ServingViewRow, type SessionDeveloperLink, type ViewLink } from '../../domain/serving-links.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { servingSessionBody, servingViewBody } from './serving-bodies.js'
import { date, join, sql, uuidSet, type SqlFragment } from './sql-fragment.js'

/** A lookup reads a few granules of the days it names: one thread is plenty. */
const LOOKUP_SETTINGS: ClickHouseSettings = { max_threads: 1 }

/**
 * The rows of `ids` on `days`. The key (Day, id) finds the granules, but a lookup's ids are spread
 * over a day, so most of its granules are read; PREWHERE reads only the id column of them and the
 * other columns of the rows that match: a seventh of the bytes, a fifth less time (docs/performance.md).
 */
const idsOnDays = (days: readonly DayNumber[], column: SqlFragment, ids: readonly Guid[]): SqlFragment =>
  sql`PREWHERE ${column} IN ${uuidSet(ids)} WHERE Day IN (${join(days.map((d) => date(dayText(d))), ', ')})`

/** Ids per lookup: 5,000 UUIDs are 185 KB of SQL text, inside 18.16's 256 KiB max_query_size. */
const IDS_PER_LOOKUP = 5000

const inChunks = async <T>(ids: readonly Guid[], lookup: (chunk: readonly Guid[]) => Promise<T[]>): Promise<T[]> => {
  const found: T[] = []
  for (let i = 0; i < ids.length; i += IDS_PER_LOOKUP) found.push(...(await lookup(ids.slice(i, i + IDS_PER_LOOKUP))))
  return found
}

interface ViewLinkRow {
  SessionId: Guid
  PropertyObjectViewId: Guid
  FactId: string
  DeveloperId: Guid
  IsClosed: number
  DurationSeconds: number
  EventTime: number
  IngestionTime: number
}

interface SessionLinkRow {
  Day: number
  SessionId: Guid
  FactId: string
  DurationSeconds: number
  ViewerKind: 'Guest' | 'User'
  EventTime: number
  IngestionTime: number
}

/**
 * The serving and link tables of migration 0008 on a ClickHouse server, chdb or a cluster. The
 * lookups read every replica (ReadTables): an instance writing through one replica finds the links
 * another instance's batch wrote through another, acknowledged before the lookup began, so of two
 * batches racing at least the later one links the pair (each stores, then looks up).
 */
export class ClickHouseServingIndex implements ServingIndex {
  constructor(private readonly session: ClickHouseSession) {}

  async viewLinks(days: readonly DayNumber[], viewIds: readonly Guid[]): Promise<ViewLink[]> {
    if (days.length === 0) return []
    const tables = await this.session.readTables()
    const rows = await inChunks(viewIds, (ids) => this.session.select<ViewLinkRow>(sql`
      SELECT SessionId, PropertyObjectViewId, FactId, DeveloperId, IsClosed, DurationSeconds,
             toUInt32(EventTime) AS EventTime, toUInt32(IngestionTime) AS IngestionTime
      FROM ${tables.table('view_links')}
      ${idsOnDays(days, sql`PropertyObjectViewId`, ids)}`, LOOKUP_SETTINGS))
    return rows.map((r) => ({
      propertyObjectViewId: r.PropertyObjectViewId, factId: r.FactId, developerId: r.DeveloperId, sessionId: r.SessionId,
      isClosed: Number(r.IsClosed) === 1, durationSeconds: Number(r.DurationSeconds),
      eventTime: Number(r.EventTime) * 1000, ingestionTime: Number(r.IngestionTime) * 1000,
    }))
  }

  async sessionDevelopers(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<SessionDeveloperLink[]> {
    if (days.length === 0) return []
    const tables = await this.session.readTables()
    const rows = await inChunks(sessionIds, (ids) => this.session.select<{ Day: number; SessionId: Guid; DeveloperId: Guid }>(sql`
      SELECT DISTINCT toUInt16(Day) AS Day, SessionId, DeveloperId
      FROM ${tables.table('session_view_links')}
      ${idsOnDays(days, sql`SessionId`, ids)}`, LOOKUP_SETTINGS))
    return rows.map((r) => ({ day: Number(r.Day), sessionId: r.SessionId, developerId: r.DeveloperId }))
  }

  async sessionLinks(days: readonly DayNumber[], sessionIds: readonly Guid[]): Promise<DayedSessionLink[]> {
    if (days.length === 0) return []
    const tables = await this.session.readTables()
    const rows = await inChunks(sessionIds, (ids) => this.session.select<SessionLinkRow>(sql`
      SELECT toUInt16(Day) AS Day, SessionId, FactId, DurationSeconds, ViewerKind,
             toUInt32(EventTime) AS EventTime, toUInt32(IngestionTime) AS IngestionTime
      FROM ${tables.table('session_links')}
      ${idsOnDays(days, sql`SessionId`, ids)}`, LOOKUP_SETTINGS))
    return rows.map((r) => ({
      day: Number(r.Day), sessionId: r.SessionId, factId: r.FactId, durationSeconds: Number(r.DurationSeconds), viewerKind: r.ViewerKind,
      eventTime: Number(r.EventTime) * 1000, ingestionTime: Number(r.IngestionTime) * 1000,
    }))
  }

  async write(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> {
    if (views.length > 0) await this.session.insertJsonEachRow('developer_view_facts', servingViewBody(views))
    if (sessions.length > 0) await this.session.insertJsonEachRow('developer_session_facts', servingSessionBody(sessions))
  }

  async written(writes: readonly DeveloperWrite[]): Promise<void> {
    await this.session.insert('developer_day_writes', writes.map((w) => ({ KeyDeveloperId: w.keyDeveloperId, Day: dayText(w.day), Source: w.source, Rows: w.rows })))
  }
}
