import type { ClickHouseSettings } from '@clickhouse/client'
import type { DeveloperDay, Latest, LatestStates, SessionKey, SessionView, ViewKey, SessionDaysIndex } from '../../application/ports/session-days-index.port.js'
import type { Guid } from '../../domain/guid.js'
import { dayText, type DayNumber, type ServingSessionRow, type ServingViewRow } from '../../domain/serving-links.js'
import { firstDayOf, type DayItem, type DaySummary, type SessionState, type ViewState } from '../../domain/session-states.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { timeLimitedSelect } from './time-limited-select.js'
import { SERVING_SESSION_COLUMNS, SERVING_VIEW_COLUMNS, servingSessionRowOf, servingViewRowOf, type ServingSessionText, type ServingViewText } from './serving-row-text.js'
import { date, ident, sql, uuid, uuidDaySet, uuidPairSet, uuidSet, type SqlFragment } from './sql-fragment.js'

/** A lookup reads a few granules of the keys it names: one thread is plenty. Its key sets may exceed 18.16's default max_query_size (256 KiB). */
const LOOKUP_SETTINGS: ClickHouseSettings = { max_threads: 1, max_query_size: '8388608' }

interface StateRow {
  KeyDeveloperId: Guid
  SessionId: Guid
  ViewDays: number[]
  DurationSeconds: number
  ViewerKind: 'Guest' | 'User'
  Version: string | number
}

interface LatestSessionRow {
  KeyDeveloperId: Guid
  SessionId: Guid
  LatestViewDays: number[]
  LatestDuration: number
  LatestViewerKind: 'Guest' | 'User'
  LatestVersion: string | number
  Days: number[]
}

interface LatestViewRow {
  KeyDeveloperId: Guid
  PropertyObjectViewId: Guid
  LatestCounted: number
  DayNumber: number
  WinnerSessionId: Guid
  LatestClosed: number
  LatestDuration: number
  LatestVersion: string | number
  Days: number[]
}

interface SummaryRow {
  KeyDeveloperId: Guid
  DayNumber: number
  Sessions: string | number
  GuestSessions: string | number
  UserSessions: string | number
  TotalDurationSeconds: string | number
  MinDurationSeconds: number
  MaxDurationSeconds: number
  Views: string | number
  ClosedViews: string | number
  TotalViewSeconds: string | number
  Version: string | number
}

const STATE_COLUMNS = sql`KeyDeveloperId, SessionId, arrayMap(d -> toUInt16(d), ViewDays) AS ViewDays, DurationSeconds, ViewerKind, Version`

const stateOf = (r: StateRow): SessionState => ({
  developerId: r.KeyDeveloperId, sessionId: r.SessionId, viewDays: r.ViewDays.map(Number), durationSeconds: Number(r.DurationSeconds), viewerKind: r.ViewerKind, version: Number(r.Version),
})

const distinct = (ids: readonly Guid[]): Guid[] => [...new Set(ids)]

/** Keys per lookup: a key is one pair of the set, ~75 bytes; 5,000 of them are well within LOOKUP_SETTINGS' max_query_size. */
const KEYS_PER_LOOKUP = 5000

const inChunks = async <K, T>(keys: readonly K[], lookup: (chunk: readonly K[]) => Promise<T[]>): Promise<T[]> => {
  const found: T[] = []
  for (let i = 0; i < keys.length; i += KEYS_PER_LOOKUP) found.push(...(await lookup(keys.slice(i, i + KEYS_PER_LOOKUP))))
  return found
}

/** Migration 0011's view and session states, day items and day summaries on a ClickHouse server, chdb or a cluster (through the Distributed tables). */
export class ClickHouseSessionDays implements SessionDaysIndex {
  private readonly read: ReturnType<typeof timeLimitedSelect>

  /** `readTimeoutSeconds`: the limit of the reads a read model makes (summaries, spanning); 0 for none. */
  constructor(private readonly session: ClickHouseSession, readTimeoutSeconds = 0) {
    this.read = timeLimitedSelect(session, readTimeoutSeconds)
  }

  async viewRows(views: readonly ViewKey[]): Promise<ServingViewRow[]> {
    return inChunks(views, (chunk) => this.viewRowsChunk(chunk))
  }

  private async viewRowsChunk(views: readonly ViewKey[]): Promise<ServingViewRow[]> {
    if (views.length === 0) return []
    // a set per column, then the pairs filtered here: on granules of 1,024 rows two sets test faster than one set of pairs
    const wanted = new Set(views.map((v) => `${v.developerId}|${v.viewId}`))
    const rows = await this.session.select<ServingViewText>(sql`
      SELECT ${SERVING_VIEW_COLUMNS} FROM ${this.table('developer_view_facts')}
      WHERE KeyDeveloperId IN ${uuidSet(distinct(views.map((v) => v.developerId)))} AND PropertyObjectViewId IN ${uuidSet(distinct(views.map((v) => v.viewId)))}`, LOOKUP_SETTINGS)
    return rows.filter((r) => wanted.has(`${r.KeyDeveloperId}|${r.PropertyObjectViewId}`)).map(servingViewRowOf)
  }

  async sessionFacts(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]> {
    return inChunks(sessions, (chunk) => this.sessionFactsChunk(chunk))
  }

  private async sessionFactsChunk(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]> {
    if (sessions.length === 0) return []
    const rows = await this.session.select<ServingSessionText>(sql`
      SELECT ${SERVING_SESSION_COLUMNS} FROM ${this.table('developer_session_facts')} WHERE ${this.sessionKeys(sessions)}`, LOOKUP_SETTINGS)
    return rows.map(servingSessionRowOf)
  }

  async writeViewStates(states: readonly ViewState[]): Promise<void> {
    if (states.length === 0) return
    await this.session.insert('developer_view_states', states.map((v) => ({
      KeyDeveloperId: v.developerId, PropertyObjectViewId: v.viewId, Counted: v.day === undefined ? 0 : 1, Day: dayText(v.day ?? 0), SessionId: v.sessionId,
      IsClosed: v.isClosed ? 1 : 0, DurationSeconds: v.durationSeconds, Version: v.version,
    })))
  }

  async sessionViews(sessions: readonly SessionKey[]): Promise<SessionView[]> {
    return inChunks(sessions, (chunk) => this.sessionViewsChunk(chunk))
  }

  private async sessionViewsChunk(sessions: readonly SessionKey[]): Promise<SessionView[]> {
    if (sessions.length === 0) return []
    // two lookups by constant keys: an IN over a table's subquery reads the developer's whole range
    const named = await this.session.select<{ KeyDeveloperId: Guid; SessionId: Guid; PropertyObjectViewId: Guid }>(sql`
      SELECT DISTINCT KeyDeveloperId, SessionId, PropertyObjectViewId FROM ${this.table('developer_session_views')} WHERE ${this.sessionKeys(sessions)}`, LOOKUP_SETTINGS)
    const views = [...new Map(named.map((n) => [`${n.KeyDeveloperId}|${n.PropertyObjectViewId}`, { developerId: n.KeyDeveloperId, viewId: n.PropertyObjectViewId }])).values()]
    const latest = new Map((await inChunks(views, (chunk) => this.latestViews(chunk))).map((l) => [`${l.state.developerId}|${l.state.viewId}`, l]))
    return named.flatMap((n) => {
      const view = latest.get(`${n.KeyDeveloperId}|${n.PropertyObjectViewId}`)
      return view ? [{ developerId: n.KeyDeveloperId, sessionId: n.SessionId, view }] : []
    })
  }

  async writeSessionStates(states: readonly SessionState[]): Promise<void> {
    if (states.length === 0) return
    await this.session.insert('developer_session_states', states.map((s) => ({
      KeyDeveloperId: s.developerId, SessionId: s.sessionId, FirstDay: dayText(firstDayOf(s) ?? 0), ViewDays: s.viewDays.map(dayText),
      DurationSeconds: s.durationSeconds, ViewerKind: s.viewerKind, Version: s.version,
    })))
  }

  async latestStates(sessions: readonly SessionKey[], views: readonly ViewKey[]): Promise<LatestStates> {
    const [sessionRows, viewStates] = await Promise.all([
      inChunks(sessions, (chunk) => this.session.select<LatestSessionRow>(sql`
        SELECT KeyDeveloperId, SessionId, arrayMap(d -> toUInt16(d), argMax(ViewDays, Version)) AS LatestViewDays, argMax(DurationSeconds, Version) AS LatestDuration,
               argMax(ViewerKind, Version) AS LatestViewerKind, max(Version) AS LatestVersion, arrayMap(d -> toUInt16(d), groupUniqArrayIf(FirstDay, notEmpty(ViewDays))) AS Days
        FROM ${this.table('developer_session_states')} WHERE ${this.sessionKeys(chunk)}
        GROUP BY KeyDeveloperId, SessionId`, LOOKUP_SETTINGS)),
      inChunks(views, (chunk) => this.latestViews(chunk)),
    ])
    return {
      sessions: sessionRows.map((r) => ({
        state: { developerId: r.KeyDeveloperId, sessionId: r.SessionId, viewDays: r.LatestViewDays.map(Number), durationSeconds: Number(r.LatestDuration), viewerKind: r.LatestViewerKind, version: Number(r.LatestVersion) },
        days: r.Days.map(Number),
      })),
      views: viewStates,
    }
  }

  /** The latest (highest-version) state of each view that has one, with every day any of its states counted it on. */
  private async latestViews(views: readonly ViewKey[]): Promise<Latest<ViewState>[]> {
    if (views.length === 0) return []
    const rows = await this.session.select<LatestViewRow>(sql`
      SELECT KeyDeveloperId, PropertyObjectViewId, argMax(Counted, Version) AS LatestCounted, toUInt16(argMax(Day, Version)) AS DayNumber, argMax(SessionId, Version) AS WinnerSessionId,
             argMax(IsClosed, Version) AS LatestClosed, argMax(DurationSeconds, Version) AS LatestDuration, max(Version) AS LatestVersion,
             arrayMap(d -> toUInt16(d), groupUniqArrayIf(Day, Counted = 1)) AS Days
      FROM ${this.table('developer_view_states')} WHERE ${this.viewKeys(views)}
      GROUP BY KeyDeveloperId, PropertyObjectViewId`, LOOKUP_SETTINGS)
    return rows.map((r) => ({
      state: {
        developerId: r.KeyDeveloperId, viewId: r.PropertyObjectViewId, day: Number(r.LatestCounted) === 1 ? Number(r.DayNumber) : undefined, sessionId: r.WinnerSessionId,
        isClosed: Number(r.LatestClosed) === 1, durationSeconds: Number(r.LatestDuration), version: Number(r.LatestVersion),
      },
      days: r.Days.map(Number),
    }))
  }

  async writeDayItems(items: readonly DayItem[]): Promise<void> {
    if (items.length === 0) return
    await this.session.insert('developer_day_items', items.map((i) => ({
      KeyDeveloperId: i.developerId, Day: dayText(i.day), Kind: i.kind === 'session' ? 1 : 2, ItemId: i.itemId, Counted: i.counted ? 1 : 0,
      Guest: i.guest ? 1 : 0, IsClosed: i.isClosed ? 1 : 0, DurationSeconds: i.durationSeconds, Version: i.version,
    })))
  }

  async summarizeDays(days: readonly DeveloperDay[]): Promise<void> {
    await inChunks(days, async (chunk) => {
      await this.session.command(this.summariesOf(chunk), LOOKUP_SETTINGS)
      return []
    })
  }

  async summaries(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DaySummary[]> {
    const rows = await this.read<SummaryRow>(sql`
      SELECT KeyDeveloperId, toUInt16(Day) AS DayNumber, Sessions, GuestSessions, UserSessions, TotalDurationSeconds, MinDurationSeconds, MaxDurationSeconds,
             Views, ClosedViews, TotalViewSeconds, Version
      FROM ${this.table('developer_day_summaries')}
      PREWHERE KeyDeveloperId = ${uuid(developerId)} AND Day >= ${date(dayText(first))} AND Day <= ${date(dayText(last))}
      ORDER BY DayNumber, Version DESC LIMIT 1 BY DayNumber`)
    return rows.map((r) => ({
      developerId: r.KeyDeveloperId, day: Number(r.DayNumber), version: Number(r.Version),
      sessions: {
        sessions: Number(r.Sessions), guestSessions: Number(r.GuestSessions), userSessions: Number(r.UserSessions),
        totalDurationSeconds: Number(r.TotalDurationSeconds), minDurationSeconds: Number(r.MinDurationSeconds), maxDurationSeconds: Number(r.MaxDurationSeconds),
      },
      views: { views: Number(r.Views), closedViews: Number(r.ClosedViews), totalViewSeconds: Number(r.TotalViewSeconds) },
    }))
  }

  async spanning(developerId: Guid, first: DayNumber, last: DayNumber): Promise<SessionState[]> {
    const rows = await this.read<StateRow>(sql`
      SELECT ${STATE_COLUMNS} FROM (${this.latestSessionStates(sql`KeyDeveloperId = ${uuid(developerId)} AND SessionId IN (
        SELECT SessionId FROM ${this.table('developer_spanning_sessions')}
        PREWHERE KeyDeveloperId = ${uuid(developerId)} AND FirstDay >= ${date(dayText(Math.max(0, first)))} AND FirstDay <= ${date(dayText(Math.max(0, last)))})`)})
      WHERE length(ViewDays) > 1`)
    return rows.map(stateOf)
  }

  /** daySummary (domain/session-states.ts) in SQL, inserted where the items are: per item the highest version. */
  private summariesOf(days: readonly DeveloperDay[]): SqlFragment {
    const session = sql`Kind = 1 AND ItemCounted = 1`
    const view = sql`Kind = 2 AND ItemCounted = 1`
    return sql`
      INSERT INTO ${this.table('developer_day_summaries')}
        (KeyDeveloperId, Day, Sessions, GuestSessions, UserSessions, TotalDurationSeconds, MinDurationSeconds, MaxDurationSeconds, Views, ClosedViews, TotalViewSeconds, Version)
      SELECT KeyDeveloperId, ItemDay, countIf(${session}), countIf(${session} AND ItemGuest = 1), countIf(${session} AND ItemGuest = 0),
             sumIf(ItemDuration, ${session}), minIf(ItemDuration, ${session}), maxIf(ItemDuration, ${session}),
             countIf(${view}), countIf(${view} AND ItemClosed = 1), sumIf(ItemDuration, ${view}), sum(ItemVersion)
      FROM (
        SELECT KeyDeveloperId, Day AS ItemDay, Kind, ItemId, argMax(Counted, Version) AS ItemCounted, argMax(Guest, Version) AS ItemGuest,
               argMax(IsClosed, Version) AS ItemClosed, argMax(DurationSeconds, Version) AS ItemDuration, max(Version) AS ItemVersion
        FROM ${this.table('developer_day_items')} WHERE ${this.dayKeys(days, sql`Day`)}
        GROUP BY KeyDeveloperId, Day, Kind, ItemId)
      GROUP BY KeyDeveloperId, ItemDay`
  }

  /** The latest (highest-version) state of each session the condition selects. */
  private latestSessionStates(where: SqlFragment): SqlFragment {
    return sql`
      SELECT KeyDeveloperId, SessionId, ViewDays, DurationSeconds, ViewerKind, Version FROM ${this.table('developer_session_states')}
      WHERE ${where}
      ORDER BY KeyDeveloperId, SessionId, Version DESC LIMIT 1 BY KeyDeveloperId, SessionId`
  }

  /*
   * The keys as one set of pairs: the primary key is searched by it alone (each key reads its own
   * granule of every part). A set of each column beside it reads the same granules and costs as
   * much again to build and to test.
   */
  private viewKeys(views: readonly ViewKey[]): SqlFragment {
    return sql`(KeyDeveloperId, PropertyObjectViewId) IN ${uuidPairSet(views.map((v) => [v.developerId, v.viewId]))}`
  }

  private sessionKeys(sessions: readonly SessionKey[]): SqlFragment {
    return sql`(KeyDeveloperId, SessionId) IN ${uuidPairSet(sessions.map((s) => [s.developerId, s.sessionId]))}`
  }

  /** The developer-days, with the days' range beside them (what the monthly partitions are pruned by). */
  private dayKeys(days: readonly DeveloperDay[], column: SqlFragment): SqlFragment {
    const numbers = days.map((d) => d.day)
    return sql`${column} >= ${date(dayText(Math.min(...numbers)))} AND ${column} <= ${date(dayText(Math.max(...numbers)))}
      AND (KeyDeveloperId, ${column}) IN ${uuidDaySet(days.map((d) => [d.developerId, dayText(d.day)]))}`
  }

  private table(name: string): SqlFragment {
    return sql`${ident(this.session.database)}.${ident(name)}`
  }
}
