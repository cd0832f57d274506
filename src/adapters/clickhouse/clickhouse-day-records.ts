import type { ClickHouseSettings } from '@clickhouse/client'
import type { DayRecordInputs, DayRecordStore, StoredDayRecord } from '../../application/ports/day-records.port.js'
import { RECORD_LOOKBACK_DAYS, type DayWrites, type DeveloperView } from '../../domain/day-records.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf, dayText, type DayNumber, type SessionLink } from '../../domain/serving-links.js'
import { removalsByPartition } from './clickhouse-data-versions.js'
import { SESSION_DAYS_OFF } from './serving-completeness.js'
import type { ClickHouseSession, ReadTables } from './clickhouse-session.js'
import { date, int, name, sql, uuid, uuidSet, wholeLiteral, type SqlFragment } from './sql-fragment.js'
import { timeLimitedSelect } from './time-limited-select.js'

/** One developer's rows in a few granules: one thread is plenty. */
const READ_SETTINGS: ClickHouseSettings = { max_threads: 1, use_index_for_in_with_subqueries: 0 }
/** Lookups by a set of sessions: its index is used, and the set of a run's older sessions may exceed 18.16's default max_query_size (256 KiB). */
const FACT_SETTINGS: ClickHouseSettings = { max_threads: 1, max_query_size: '16777216' }

/** The tables a record is computed from and stamped by: rows removed from them stale it. */
const RECORD_TABLES = ['developer_day_writes', 'developer_view_facts', 'developer_session_facts']

/** How long after its last record an instance writing without counts may still be writing (it records every minute). */
const UNCOUNTED_WRITER_SECONDS = 120

const DAY_SECONDS = 86_400
const HOUR_MS = 3_600_000
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
 * and the serving-row reads a run of days is computed from: the developer's views of the run's
 * days and the day before, the latest row and earliest start of the sessions its rows name, and
 * the earlier views of those sessions from the first day of their spans (rarely more than the day
 * before).
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
    const tables = await this.session.readTables()
    // on a cluster the rows are in the Replicated tables under the Distributed ones
    const local = this.session.options.cluster ? '_local' : ''
    const removals = removalsByPartition(this.session.database, RECORD_TABLES.map((t) => `${t}${local}`), tables.system)
    const [rows, partitions, [state]] = await Promise.all([
      // on a cluster a count fetched by a second replica is summed twice: the sum still grows with every write, and only equality is asked of it
      this.select<{ Source: 'views' | 'sessions'; D: number; Rows: string }>(sql`
        SELECT Source, toUInt16(Day) AS D, sum(Rows) AS Rows
        FROM ${tables.table('developer_day_writes')}
        PREWHERE KeyDeveloperId = ${uuid(developerId)} AND Day >= ${date(dayText(Math.max(0, first)))} AND Day <= ${date(dayText(last))}
        GROUP BY Source, D`, READ_SETTINGS),
      this.select<{ partition: string; token: string }>(removals.partitions),
      // serving rows the backfill wrote raised no count, nor did those of an instance with the counts off (a build before them, recording itself every minute);
      // a replica left out (down) takes its counts out of the sums, which could then equal an older stamp: records wait until every replica answers
      this.select<{ other: string; now: number; off: number; answered: number }>(sql`
        SELECT concat(${removals.other}, '/', toString(max(DoneAt))) AS other, toUInt32(now()) AS now, toUInt32(maxIf(DoneAt, Step = ${name(SESSION_DAYS_OFF)})) AS off,
               (SELECT toUInt32(count()) FROM ${tables.system('one')}) AS answered
        FROM ${tables.table('serving_backfill')}`),
    ])
    const views = new Map<DayNumber, number>()
    const sessions = new Map<DayNumber, number>()
    for (const r of rows) (r.Source === 'views' ? views : sessions).set(Number(r.D), Number(r.Rows))
    const months = new Map(partitions.map((p) => [p.partition, p.token]))
    const counted = Number(state?.now ?? 0) - Number(state?.off ?? 0) > UNCOUNTED_WRITER_SECONDS && Number(state?.answered ?? 0) === tables.replicas
    return { views, sessions, removals: { months, other: state?.other ?? '' }, counted }
  }

  async records(developerId: Guid, first: DayNumber, last: DayNumber): Promise<StoredDayRecord[]> {
    const tables = await this.session.readTables()
    const rows = await this.select<RecordRow>(sql`
      SELECT toUInt16(Day) AS D, toUInt16(WindowFirst) AS WindowFirst, ViewWrites, SessionWrites, Removals, Sessions, GuestSessions, UserSessions,
             TotalDurationSeconds, MinDurationSeconds, MaxDurationSeconds, Views, ClosedViews, TotalViewSeconds,
             CarrySessionIds, arrayMap(d -> toUInt16(d), CarryFirstDays) AS CarryFirstDays, CarryDurationSeconds, CarryViewerKinds
      FROM ${tables.table('developer_day_records')}
      PREWHERE KeyDeveloperId = ${uuid(developerId)} AND Day >= ${date(dayText(Math.max(0, first)))} AND Day <= ${date(dayText(last))}
      ORDER BY D, Version DESC
      LIMIT 1 BY D`, READ_SETTINGS)
    return rows.map(recordOf)
  }

  async recordInputs(developerId: Guid, first: DayNumber, last: DayNumber, maxViews: number): Promise<DayRecordInputs | undefined> {
    // the run's views and the day before's (a session begun then has its earlier views there), and the run's sessions' rows
    const tables = await this.session.readTables()
    // both bounded: a run whose views or sessions are more than maxViews is too heavy to compute here
    const [near, facts] = await Promise.all([
      this.winners(tables, developerId, first - 1, last, undefined, maxViews + 1),
      this.sessionRows(tables, developerId, first, last, maxViews + 1),
    ])
    if (near.length > maxViews || facts.length > maxViews) return undefined
    // the earlier views of the sessions begun before that, from the first day of their spans
    const spanFirst = new Map<Guid, DayNumber>()
    for (const f of facts) spanFirst.set(f.sessionId, Math.min(spanFirst.get(f.sessionId) ?? Infinity, dayOf(f.eventTime - HOUR_MS)))
    const older = [...spanFirst].filter(([, day]) => day < first - 1)
    if (older.length === 0) return { views: near, facts }
    const from = Math.max(first - RECORD_LOOKBACK_DAYS, Math.min(...older.map(([, day]) => day)))
    const earlier = await this.winners(tables, developerId, from, first - 2, older.map(([id]) => id))
    return { views: [...earlier, ...near], facts }
  }

  /**
   * The developer's views whose winning row (ranked as the serving read ranks them,
   * merged-views.sql.ts) is the developer's and on [from, to], of the given sessions only if any:
   * a view's rows lie within a day of one another, so its rows of [from − 1, to + 1] are all it has.
   */
  private async winners(tables: ReadTables, developerId: Guid, from: DayNumber, to: DayNumber, sessionIds?: readonly Guid[], limit?: number): Promise<DeveloperView[]> {
    const dev = uuid(developerId)
    const rows = sql`${tables.table('developer_view_facts')} PREWHERE KeyDeveloperId = ${dev} AND EventTime >= ${dayStart(from - 1)} AND EventTime < ${dayStart(to + 2)}`
    const ofSessions = sessionIds ? sql`WHERE PropertyObjectViewId IN (SELECT PropertyObjectViewId FROM ${rows} WHERE SessionId IN ${uuidSet(sessionIds)})` : sql``
    const found = await this.select<{ SessionId: Guid; D: number; IsClosed: number; DurationSeconds: number }>(sql`
      SELECT SessionId, toUInt16(toDate(EventTime)) AS D, IsClosed, DurationSeconds
      FROM (
        SELECT SessionId, IsClosed, DurationSeconds, DeveloperId, EventTime
        FROM ${rows} ${ofSessions}
        ORDER BY PropertyObjectViewId, IsClosed DESC, IngestionTime DESC, FactId DESC, DeveloperId DESC
        LIMIT 1 BY PropertyObjectViewId)
      WHERE DeveloperId = ${dev} AND EventTime >= ${dayStart(from)} AND EventTime < ${dayStart(to + 1)}
      ${limit === undefined ? sql`` : sql`LIMIT ${wholeLiteral(limit)}`}`, sessionIds ? FACT_SETTINGS : READ_SETTINGS)
    return found.map((v) => ({ sessionId: v.SessionId, day: Number(v.D), isClosed: Number(v.IsClosed) === 1, durationSeconds: Number(v.DurationSeconds) }))
  }

  /**
   * Each session named by the developer's rows on [first, last]: its latest row under the
   * developer's key (by IngestionTime, then FactId), with the earliest EventTime (StartedAt) of its rows.
   */
  private async sessionRows(tables: ReadTables, developerId: Guid, first: DayNumber, last: DayNumber, limit: number): Promise<SessionLink[]> {
    const dev = uuid(developerId)
    const found = await this.select<{ SessionId: Guid; s: [string, number, 'Guest' | 'User', number]; started: number }>(sql`
      SELECT SessionId, argMax(tuple(FactId, DurationSeconds, ViewerKind, toUInt32(IngestionTime)), tuple(IngestionTime, FactId)) AS s, toUInt32(min(EventTime)) AS started
      FROM ${tables.table('developer_session_facts')}
      PREWHERE KeyDeveloperId = ${dev} AND SessionId IN (
        SELECT SessionId FROM ${tables.table('developer_view_facts')}
        PREWHERE KeyDeveloperId = ${dev} AND EventTime >= ${dayStart(first)} AND EventTime < ${dayStart(last + 1)})
      GROUP BY SessionId
      LIMIT ${wholeLiteral(limit)}`, FACT_SETTINGS)
    return found.map((f) => ({
      sessionId: f.SessionId, factId: f.s[0], durationSeconds: Number(f.s[1]), viewerKind: f.s[2], eventTime: Number(f.started) * 1000, ingestionTime: Number(f.s[3]) * 1000,
    }))
  }

  async storeRecords(developerId: Guid, records: readonly StoredDayRecord[]): Promise<void> {
    // the record stored last wins: a stamp's sum can be smaller for a newer record (its window shrank)
    const computedAt = Date.now()
    await this.session.insert('developer_day_records', records.map((r) => ({
      KeyDeveloperId: developerId,
      Day: dayText(r.day),
      WindowFirst: dayText(Math.max(0, r.windowFirst)),
      ViewWrites: r.stamp.viewWrites,
      SessionWrites: r.stamp.sessionWrites,
      Removals: r.stamp.removals,
      Version: computedAt,
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
