import type { PairBreaches, ServingGap, ServingGaps } from '../../application/ports/serving-gaps.port.js'
import { EMPTY_GUID } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import { dayText, SESSION_LINK_MAX_DAYS, type DayNumber } from '../../domain/serving-links.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { date, ident, int, wholeLiteral, sql, uuid, type SqlFragment } from './sql-fragment.js'
import { servingSessionRowsOf, servingViewRowsOf } from './serving-rows.sql.js'
import { SERVING_SESSION_COLUMNS, SERVING_VIEW_COLUMNS, servingSessionRowOf, servingViewRowOf, type ServingSessionText, type ServingViewText } from './serving-row-text.js'

/** A day's link rows of facts stored before a time (a condition to append). */
const storedBeforeThe = (t: Instant): SqlFragment => sql` AND toUInt32(IngestionTime) < ${int(Math.floor(t / 1000))}`

/** How far from a view's day its other rows are searched for (two session lengths and more). */
const APART_SEARCH_DAYS = 70

/**
 * The serving rows a day's link rows call for (serving-rows.sql.ts, the backfill's joins), less
 * those the serving tables hold (by their keys, read through the developers' primary-key ranges).
 * A pass reads the day's link rows and its neighbours' view links once.
 */
export class ClickHouseServingGaps implements ServingGaps {
  constructor(private readonly session: ClickHouseSession) {}

  async missing(day: DayNumber, limit: number, storedBefore: Instant): Promise<ServingGap> {
    const d = date(dayText(day))
    const settled = storedBeforeThe(storedBefore)
    const views = await this.session.select<ServingViewText>(sql`
      SELECT DISTINCT ${SERVING_VIEW_COLUMNS}
      FROM (${servingViewRowsOf(this.session.database, day, settled)})
      WHERE (KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId) NOT IN (
        SELECT KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId FROM ${this.table('developer_view_facts')}
        WHERE KeyDeveloperId IN (SELECT DeveloperId FROM ${this.table('view_links')} WHERE Day >= ${d} - 1 AND Day <= ${d} + 1)
          AND toDate(EventTime) = ${d})
      LIMIT ${wholeLiteral(limit)}`)
    const sessions = await this.session.select<ServingSessionText>(sql`
      SELECT ${SERVING_SESSION_COLUMNS}
      FROM (${servingSessionRowsOf(this.session.database, day, settled)})
      WHERE (KeyDeveloperId, SessionId, FactId) NOT IN (
        SELECT KeyDeveloperId, SessionId, FactId FROM ${this.table('developer_session_facts')}
        WHERE KeyDeveloperId IN (SELECT DeveloperId FROM ${this.table('session_view_links')} WHERE Day = ${d})
          AND SessionId IN (SELECT SessionId FROM ${this.table('session_links')} WHERE Day = ${d}))
      LIMIT ${wholeLiteral(limit)}`)
    return { views: views.map(servingViewRowOf), sessions: sessions.map(servingSessionRowOf) }
  }

  async breaches(day: DayNumber, storedBefore: Instant): Promise<PairBreaches> {
    const d = date(dayText(day))
    const settled = storedBeforeThe(storedBefore)
    // the session is stored (a seek by SessionId, session_facts' key) and its latest fact is not linked on the view's day: outside
    // its span (± 1 h) or past its 32nd day, a later, shorter fact included (an earlier fact's days do not count: the latest fact is read)
    const [outside] = await this.session.select<{ n: string }>(sql`
      SELECT count() AS n FROM (
        SELECT DISTINCT PropertyObjectViewId, SessionId FROM ${this.table('view_links')}
        WHERE Day = ${d}${settled} AND SessionId != ${uuid(EMPTY_GUID)}) AS v
      ALL INNER JOIN (
        SELECT SessionId, toDate(tupleElement(span, 1) - 3600) AS FirstDay, toDate(tupleElement(span, 2) + 3600) AS LastDay
        FROM (SELECT SessionId, argMax(tuple(StartedAt, greatest(LastActivityAt, StartedAt)), tuple(IngestionTime, FactId)) AS span
              FROM ${this.table('session_facts')}
              WHERE SessionId IN (SELECT SessionId FROM ${this.table('view_links')} WHERE Day = ${d} AND SessionId != ${uuid(EMPTY_GUID)})
              GROUP BY SessionId)) AS s USING SessionId
      WHERE ${d} < FirstDay OR ${d} > LastDay OR ${d} > FirstDay + ${wholeLiteral(SESSION_LINK_MAX_DAYS - 1)}`)
    // another row of the view more than a day away (searched within APART_SEARCH_DAYS, by the facts' key prefix)
    const [apart] = await this.session.select<{ n: string }>(sql`
      SELECT count() AS n FROM (
        SELECT DISTINCT PropertyObjectViewId FROM ${this.table('property_object_view_facts')}
        WHERE (DeveloperId, PropertyObjectViewId) IN (SELECT DeveloperId, PropertyObjectViewId FROM ${this.table('view_links')} WHERE Day = ${d}${settled})
          AND toDate(EventTime) >= ${d} - ${wholeLiteral(APART_SEARCH_DAYS)} AND toDate(EventTime) <= ${d} + ${wholeLiteral(APART_SEARCH_DAYS)}
          AND (toDate(EventTime) < ${d} - 1 OR toDate(EventTime) > ${d} + 1))`)
    return { 'view-outside-session': Number(outside?.n ?? 0), 'view-rows-apart': Number(apart?.n ?? 0) }
  }

  private table(name: string): SqlFragment {
    return sql`${ident(this.session.database)}.${ident(name)}`
  }
}
