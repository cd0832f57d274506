import type { ClickHouseSettings } from '@clickhouse/client'
import type { DayRecordInputs, DayRecordStore, StoredDayRecord } from '../../application/ports/day-records.port.js'
import { RECORD_LOOKBACK_DAYS, type DayWrites } from '../../domain/day-records.js'
import { EMPTY_GUID, type Guid } from '../../domain/guid.js'
import { dayText, type DayNumber, type SessionLink } from '../../domain/serving-links.js'
import { removalToken } from './clickhouse-data-versions.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { date, ident, int, sql, uuid, uuidSet, type SqlFragment } from './sql-fragment.js'
import { timeLimitedSelect } from './time-limited-select.js'

/** One developer's rows in a few granules: one thread is plenty; the sets of a run's sessions exceed 18.16's default max_query_size (256 KiB). */
const READ_SETTINGS: ClickHouseSettings = { max_threads: 1, use_index_for_in_with_subqueries: 0 }
const FACT_SETTINGS: ClickHouseSettings = { max_threads: 1, max_query_size: '16777216' }
/** Sessions per facts lookup: ~40 bytes of SQL each. */
const SESSIONS_PER_LOOKUP = 50_000

const DAY_SECONDS = 86_400
const dayStart = (day: DayNumber): SqlFragment => sql`toDateTime(${int(Math.max(0, day) * DAY_SECONDS)}, 'UTC')`

interface RecordRow {
  D: number
  WindowFirst: number
  ViewWrites: string
  SessionWrites: string
  Removals: string
  Sessions: string
  GuestSessions: string
  UserSessions: string
  TotalDurationSeconds: string
  MinDurationSeconds: number
  MaxDurationSeconds: number
  Views: string
  ClosedViews: string
  TotalViewSeconds: string
  CarrySessionIds: Guid[]
  CarryFirstDays: number[]
  CarryDurationSeconds: number[]
  CarryViewerKinds: ('Guest' | 'User')[]
}

/**
 * Day records on ClickHouse (migration 0012): the per-day write counts the serving step raises
 * (developer_day_writes), the records (developer_day_records, the highest stamp of a day wins),
 * and the serving-row reads a run of days is computed from: the developer's rows of the run's days
 * and of the RECORD_LOOKBACK_DAYS before, of the views of the sessions the run's rows name, ranked
 * as the serving read ranks them (merged-views.sql.ts), and every session row of those sessions.
 */
export class ClickHouseDayRecords implements DayRecordStore {
  private readonly select: ReturnType<typeof timeLimitedSelect>

  constructor(
    private readonly session: ClickHouseSession,
    /** The server ends a read after this long (max_execution_time): ReadTimedOut. 0: no limit. */
    timeoutSeconds = 0,
  ) {
    this.select = timeLimitedSelect(session, timeoutSeconds)
  }

  async dayWrites(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DayWrites> {
    const [rows, [token]] = await Promise.all([
      this.select<{ Source: 'views' | 'sessions'; D: number; Rows: string }>(sql`
        SELECT Source, toUInt16(Day) AS D, sum(Rows) AS Rows
        FROM ${this.table('developer_day_writes')}
        PREWHERE KeyDeveloperId = ${uuid(developerId)} AND Day >= ${date(dayText(Math.max(0, first)))} AND Day <= ${date(dayText(last))}
        GROUP BY Source, D`, READ_SETTINGS),
      this.select<{ token: string }>(sql`SELECT ${removalToken(this.session.database, ['developer_day_writes', 'developer_view_facts', 'developer_session_facts'])} AS token`),
    ])
    const views = new Map<DayNumber, number>()
    const sessions = new Map<DayNumber, number>()
    for (const r of rows) (r.Source === 'views' ? views : sessions).set(Number(r.D), Number(r.Rows))
    return { views, sessions, removals: token?.token ?? '' }
  }

  async records(developerId: Guid, first: DayNumber, last: DayNumber): Promise<StoredDayRecord[]> {
    const rows = await this.select<RecordRow>(sql`
      SELECT toUInt16(Day) AS D, toUInt16(WindowFirst) AS WindowFirst, ViewWrites, SessionWrites, Removals, Sessions, GuestSessions, UserSessions,
             TotalDurationSeconds, MinDurationSeconds, MaxDurationSeconds, Views, ClosedViews, TotalViewSeconds,
             CarrySessionIds, arrayMap(d -> toUInt16(d), CarryFirstDays) AS CarryFirstDays, CarryDurationSeconds, CarryViewerKinds
      FROM ${this.table('developer_day_records')}
      PREWHERE KeyDeveloperId = ${uuid(developerId)} AND Day >= ${date(dayText(Math.max(0, first)))} AND Day <= ${date(dayText(last))}
      ORDER BY D, Version DESC
      LIMIT 1 BY D`, READ_SETTINGS)
    return rows.map(recordOf)
  }

  async recordInputs(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DayRecordInputs> {
    const dev = uuid(developerId)
    const rows = sql`${this.table('developer_view_facts')} PREWHERE KeyDeveloperId = ${dev}`
    const around = sql`EventTime >= ${dayStart(first - 1)} AND EventTime < ${dayStart(last + 2)}`
    // a view's rows lie within a day of one another: the rows of every view of the window, and one day more each side
    const views = await this.select<{ SessionId: Guid; D: number; IsClosed: number; DurationSeconds: number }>(sql`
      SELECT SessionId, toUInt16(toDate(EventTime)) AS D, IsClosed, DurationSeconds
      FROM (
        SELECT SessionId, IsClosed, DurationSeconds, DeveloperId, EventTime
        FROM ${rows} AND EventTime >= ${dayStart(first - RECORD_LOOKBACK_DAYS - 2)} AND EventTime < ${dayStart(last + 2)}
        WHERE PropertyObjectViewId IN (
          SELECT PropertyObjectViewId
          FROM ${rows} AND EventTime >= ${dayStart(first - RECORD_LOOKBACK_DAYS - 1)} AND EventTime < ${dayStart(last + 2)}
          WHERE ${around} OR SessionId IN (SELECT SessionId FROM ${rows} AND ${around} WHERE SessionId != ${uuid(EMPTY_GUID)}))
        ORDER BY PropertyObjectViewId, IsClosed DESC, IngestionTime DESC, FactId DESC, DeveloperId DESC
        LIMIT 1 BY PropertyObjectViewId)
      WHERE DeveloperId = ${dev} AND EventTime >= ${dayStart(first - RECORD_LOOKBACK_DAYS)} AND EventTime < ${dayStart(last + 1)}`, READ_SETTINGS)
    const sessionIds = [...new Set(views.map((v) => v.SessionId))].filter((id) => id !== EMPTY_GUID)
    const facts: SessionLink[] = []
    for (let i = 0; i < sessionIds.length; i += SESSIONS_PER_LOOKUP) {
      const found = await this.select<{ SessionId: Guid; FactId: string; DurationSeconds: number; ViewerKind: 'Guest' | 'User'; EventTime: number; IngestionTime: number }>(sql`
        SELECT SessionId, FactId, DurationSeconds, ViewerKind, toUInt32(EventTime) AS EventTime, toUInt32(IngestionTime) AS IngestionTime
        FROM ${this.table('developer_session_facts')}
        PREWHERE KeyDeveloperId = ${dev} AND SessionId IN ${uuidSet(sessionIds.slice(i, i + SESSIONS_PER_LOOKUP))}`, FACT_SETTINGS)
      for (const f of found) {
        facts.push({ sessionId: f.SessionId, factId: f.FactId, durationSeconds: Number(f.DurationSeconds), viewerKind: f.ViewerKind, eventTime: Number(f.EventTime) * 1000, ingestionTime: Number(f.IngestionTime) * 1000 })
      }
    }
    return {
      views: views.map((v) => ({ sessionId: v.SessionId, day: Number(v.D), isClosed: Number(v.IsClosed) === 1, durationSeconds: Number(v.DurationSeconds) })),
      facts,
    }
  }

  async storeRecords(developerId: Guid, records: readonly StoredDayRecord[]): Promise<void> {
    await this.session.insert('developer_day_records', records.map((r) => ({
      KeyDeveloperId: developerId,
      Day: dayText(r.day),
      WindowFirst: dayText(Math.max(0, r.windowFirst)),
      ViewWrites: r.stamp.viewWrites,
      SessionWrites: r.stamp.sessionWrites,
      Removals: r.stamp.removals,
      Version: r.stamp.viewWrites + r.stamp.sessionWrites,
      Sessions: r.sessions.sessions,
      GuestSessions: r.sessions.guestSessions,
      UserSessions: r.sessions.userSessions,
      TotalDurationSeconds: r.sessions.totalDurationSeconds,
      MinDurationSeconds: r.sessions.minDurationSeconds,
      MaxDurationSeconds: r.sessions.maxDurationSeconds,
      Views: r.views.views,
      ClosedViews: r.views.closedViews,
      TotalViewSeconds: r.views.totalViewSeconds,
      CarrySessionIds: r.carryIns.map((c) => c.sessionId),
      CarryFirstDays: r.carryIns.map((c) => dayText(c.firstDay)),
      CarryDurationSeconds: r.carryIns.map((c) => c.durationSeconds),
      CarryViewerKinds: r.carryIns.map((c) => c.viewerKind),
    })))
  }

  private table(name: string): SqlFragment {
    return sql`${ident(this.session.database)}.${ident(name)}`
  }
}

const recordOf = (r: RecordRow): StoredDayRecord => ({
  day: Number(r.D),
  windowFirst: Number(r.WindowFirst),
  stamp: { viewWrites: Number(r.ViewWrites), sessionWrites: Number(r.SessionWrites), removals: r.Removals },
  sessions: {
    sessions: Number(r.Sessions),
    guestSessions: Number(r.GuestSessions),
    userSessions: Number(r.UserSessions),
    totalDurationSeconds: Number(r.TotalDurationSeconds),
    minDurationSeconds: Number(r.MinDurationSeconds),
    maxDurationSeconds: Number(r.MaxDurationSeconds),
  },
  views: { views: Number(r.Views), closedViews: Number(r.ClosedViews), totalViewSeconds: Number(r.TotalViewSeconds) },
  carryIns: r.CarrySessionIds.map((sessionId, i) => ({
    sessionId,
    firstDay: Number(r.CarryFirstDays[i]),
    durationSeconds: Number(r.CarryDurationSeconds[i]),
    viewerKind: r.CarryViewerKinds[i] ?? 'Guest',
  })),
})
