import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, sql, uuid } from '../../src/adapters/clickhouse/sql-fragment.js'
import type { InMemoryTables } from '../../src/adapters/memory/in-memory-tables.js'
import type { Guid } from '../../src/domain/guid.js'

/**
 * What a store holds for one sample, normalised so that the three stores compare equal:
 * DateTime as epoch seconds (the column's resolution), Date as YYYY-MM-DD, UInt64 as text.
 */
export interface StoreDump {
  readonly sessions: Record<string, { startedAt: number; lastActivityAt: number; durationSeconds: number }>
  readonly views: Record<string, { isClosed: boolean; viewedAt: number; lastActivityAt: number | null; durationSeconds: number | null }>
  readonly dims: Record<string, { upsertedAt: number; version: string }>
  /** `${stage} ${day}` → distinct business keys. */
  readonly funnel: Record<string, number>
}

const sec = (ms: number): number => Math.floor(ms / 1000)

export const memoryDump = (tables: InMemoryTables, anonymousId: string, developerId: string): StoreDump => {
  const funnel: Record<string, Set<string>> = {}
  for (const { fact } of tables.of('funnel_daily')) {
    if (fact.row.developerId !== developerId) continue
    const key = `${fact.row.stage} ${fact.row.eventDate}`
    ;(funnel[key] ??= new Set()).add(fact.row.businessKey)
  }
  return {
    sessions: Object.fromEntries(
      tables.of('session_facts').filter((r) => r.fact.row.anonymousId === anonymousId).map(({ fact: { row } }) => [
        row.factId, { startedAt: sec(row.startedAt), lastActivityAt: sec(row.lastActivityAt), durationSeconds: row.durationSeconds },
      ]),
    ),
    views: Object.fromEntries(
      tables.of('property_object_view_facts').filter((r) => r.fact.row.developerId === developerId).map(({ fact: { row } }) => [
        row.factId,
        { isClosed: row.isClosed, viewedAt: sec(row.viewedAt), lastActivityAt: row.lastActivityAt === null ? null : sec(row.lastActivityAt), durationSeconds: row.durationSeconds },
      ]),
    ),
    dims: Object.fromEntries(
      tables.of('dim_property_object').filter((r) => r.fact.row.developerId === developerId).map(({ fact: { row } }) => [
        row.propertyObjectId, { upsertedAt: sec(row.upsertedAt), version: String(row.version) },
      ]),
    ),
    funnel: Object.fromEntries(Object.entries(funnel).map(([k, v]) => [k, v.size])),
  }
}

const STAGE_COLUMNS = ['Views', 'Favorites'] as const

export const clickHouseDump = async (session: ClickHouseSession, anonymousId: Guid, developerId: Guid): Promise<StoreDump> => {
  const db = ident(session.database)
  const sessions = await session.select<{ FactId: string; s: number; l: number; d: number }>(sql`
    SELECT FactId, toUnixTimestamp(StartedAt) AS s, toUnixTimestamp(LastActivityAt) AS l, DurationSeconds AS d
    FROM ${db}.session_facts WHERE AnonymousId = ${uuid(anonymousId)}`)
  const views = await session.select<{ FactId: string; c: number; v: number; l: number | null; d: number | null }>(sql`
    SELECT FactId, IsClosed AS c, toUnixTimestamp(ViewedAt) AS v, toUnixTimestamp(LastActivityAt) AS l, DurationSeconds AS d
    FROM ${db}.property_object_view_facts WHERE DeveloperId = ${uuid(developerId)}`)
  const dims = await session.select<{ id: string; u: number; ver: string }>(sql`
    SELECT toString(Id) AS id, toUnixTimestamp(UpsertedAt) AS u, toString(Version) AS ver
    FROM ${db}.dim_property_object WHERE DeveloperId = ${uuid(developerId)}`)
  const funnel = await session.select<{ day: string; Views: string | number; Favorites: string | number }>(sql`
    SELECT toString(EventDate) AS day, uniqMerge(Views) AS Views, uniqMerge(Favorites) AS Favorites
    FROM ${db}.funnel_daily WHERE DeveloperId = ${uuid(developerId)} GROUP BY EventDate`)
  return {
    sessions: Object.fromEntries(sessions.map((r) => [r.FactId, { startedAt: Number(r.s), lastActivityAt: Number(r.l), durationSeconds: Number(r.d) }])),
    views: Object.fromEntries(views.map((r) => [
      r.FactId,
      { isClosed: Number(r.c) === 1, viewedAt: Number(r.v), lastActivityAt: r.l === null ? null : Number(r.l), durationSeconds: r.d === null ? null : Number(r.d) },
    ])),
    dims: Object.fromEntries(dims.map((r) => [r.id, { upsertedAt: Number(r.u), version: r.ver }])),
    funnel: Object.fromEntries(
      funnel.flatMap((r) => STAGE_COLUMNS.map((s) => [`${s} ${r.day}`, Number(r[s])] as const)).filter(([, n]) => n > 0),
    ),
  }
}
