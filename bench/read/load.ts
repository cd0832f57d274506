import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, name, render, sql, type SqlFragment } from '../../src/adapters/clickhouse/sql-fragment.js'
import { backfillServing, type BackfillProgress } from '../../src/adapters/clickhouse/serving-backfill.js'
import type { DimensionPath } from '../../src/domain/dimension-path.js'
import type { Guid } from '../../src/domain/guid.js'

// The read benchmark's data, generated on the server (INSERT … SELECT FROM numbers()): a year
// (2026) of view facts, session facts and funnel rows. At scale N there are N × 100 developers and
// every developer owns the same data at every scale: everything a developer has is a function of
// its index d and a per-developer counter k, never of the row's position in the whole store, and
// every id is a hash of those (no random id), so developer 7's rows are identical at scale 1 and 4.
//   - views: 10,000 a year per developer (70 % closed), one row each, over 20 property objects;
//   - sessions: developers 2p and 2p + 1 share their sessions (view k of each is in session (p, k),
//     as view n and n + 1 shared session n / 2 before), so every developer has 10,000 sessions; as
//     many sessions again have no view (nobody's); SessionIds are hashes, spread over session_facts;
//   - a view happens within its session (what the serving tables assume, domain/serving-links.ts):
//     the session starts at t, its views at t (even developer) and t + 60 s (odd), a closed view's
//     last activity 120 s later, the session's LastActivityAt t + 600 s;
//   - funnel: one funnel_daily row per developer, day and property object (7,300 a year), from 4 events;
//   - a heavy developer (--heavy N, bench:read's default 1,000,000) beside them: N views a year over
//     its 20 objects, each in a session of its own (N sessions, all viewed), its funnel as anyone's.
export const DEVELOPERS_PER_SCALE = 100
export const VIEWS_PER_DEVELOPER = 10_000
/** Session facts per developer's worth of the store: half of them have the views of a developer pair. */
export const SESSIONS_PER_DEVELOPER = 10_000
/** Property objects per developer; funnel rows: one per developer, day and property object. */
const OBJECTS = 20
const FUNNEL_EVENTS_PER_ROW = 4
const YEAR_SECONDS = 365 * 86_400
const DAYS = 365
/** Bumped whenever the generated data changes: a kept database of another layout is refused. */
export const LAYOUT = 'v4: per-developer data, views within their sessions, a heavy developer'

export const developersAt = (scale: number): number => DEVELOPERS_PER_SCALE * scale

/** The heavy developer's index: above every regular developer's up to --scale 9,999. */
export const HEAVY_DEVELOPER = 999_999

/** What a store of this scale holds (its rows before the serving tables), with a heavy developer of `heavy` views and sessions. */
export const sizesAt = (scale: number, heavy = 0) => {
  const developers = developersAt(scale)
  const funnelDevelopers = developers + (heavy > 0 ? 1 : 0)
  return {
    developers,
    heavy,
    views: developers * VIEWS_PER_DEVELOPER + heavy,
    sessions: developers * SESSIONS_PER_DEVELOPER + heavy,
    funnelRows: funnelDevelopers * DAYS * OBJECTS,
    funnelEvents: funnelDevelopers * DAYS * OBJECTS * FUNNEL_EVENTS_PER_ROW,
  }
}

/** A UUID with the given 8-hex-digit prefix and `n` (a UInt expression) as its last 12 decimal digits. */
const numberedUuid = (prefix: string, n: string): string =>
  `toUUID(concat('${prefix}-0000-4000-8000-', substring(concat('000000000000', toString(${n})), length(toString(${n})) + 1)))`
const numberedGuid = (prefix: string, n: number): Guid => `${prefix}-0000-4000-8000-${String(n).padStart(12, '0')}` as Guid

/** A UUID that is a hash of a salt and a number (deterministic, spread like a random one). */
const hashedUuid = (salt: string, n: string): string => `toUUID(UUIDNumToString(MD5(concat('${salt}:', toString(${n})))))`

/** The developer of index d, as the SQL below derives it. */
export const developerId = (d: number): Guid => numberedGuid('de000000', d)

/** Property object o (0–19) of developer d and its parents, as the SQL below derives them. */
export const objectPath = (d: number, o: number): DimensionPath => ({
  developerId: developerId(d),
  projectId: numberedGuid('0a000000', d * 4 + (o % 4)),
  buildingId: numberedGuid('0c000000', d * 8 + (o % 8)),
  layoutGroupId: numberedGuid('0d000000', d * 10 + (o % 10)),
  layoutId: numberedGuid('0e000000', d * 20 + o),
  propertyObjectId: numberedGuid('0b000000', d * OBJECTS + o),
})
export const OBJECTS_PER_DEVELOPER = OBJECTS

const developer = (d: string) => numberedUuid('de000000', d)
const hierarchy = (d: string, o: string) =>
  [numberedUuid('0a000000', `${d} * 4 + ${o} % 4`), numberedUuid('0c000000', `${d} * 8 + ${o} % 8`),
    numberedUuid('0d000000', `${d} * 10 + ${o} % 10`), numberedUuid('0e000000', `${d} * 20 + ${o}`),
    numberedUuid('0b000000', `${d} * ${OBJECTS} + ${o}`)].join(', ')
/** A second of 2026 for a session key (scattered over the year). */
const inYear = (key: string) => `toDateTime('2026-01-01 00:00:00', 'UTC') + (${key} * 7919) % ${YEAR_SECONDS}`
/** The key of session k of developer pair p: the same at every scale. */
const pairSessionKey = (p: string, k: string) => `(${p}) * ${SESSIONS_PER_DEVELOPER} + (${k})`
/** Sessions without views are keyed above every pair's (up to 100,000 developer pairs). */
const ORPHAN_KEY_BASE = 1_000_000_000
/** The heavy developer's sessions and views are keyed above the orphans' and every regular view's. */
const HEAVY_KEY_BASE = 2_000_000_000
const STAGES = "['Views', 'Favorites', 'Selections', 'Leads', 'Bookings', 'BookingsPaid', 'Deals', 'DealsCompleted']"

// Built from constants only (numbers and the prefixes above): no input reaches this SQL.
const raw = (text: string | number): SqlFragment => ({ kind: 'fragment', strings: [String(text)], parts: [] })

/** `views`: a subquery with d (developer index), k (its view counter), vkey (the view's key), o (object), closed, skey (session key), t (ViewedAt). */
const viewsInsert = (db: ReturnType<typeof ident>, views: SqlFragment) =>
  sql`INSERT INTO ${db}.property_object_view_facts
        (FactId, SourceEventId, PropertyObjectViewId, PropertyObjectId, DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId,
         SessionId, AnonymousId, UserId, ViewerKind, ViewSource, ViewSourceRaw, IsClosed, ViewedAt, LastActivityAt, DurationSeconds, EventTime, IngestionTime)
        SELECT toString(${raw(hashedUuid('view-fact', 'vkey'))}), toString(${raw(hashedUuid('view-event', 'vkey'))}), ${raw(hashedUuid('view', 'vkey'))},
               ${raw(numberedUuid('0b000000', `d * ${OBJECTS} + o`))}, ${raw(developer('d'))},
               ${raw(numberedUuid('0a000000', 'd * 4 + o % 4'))}, ${raw(numberedUuid('0c000000', 'd * 8 + o % 8'))},
               ${raw(numberedUuid('0d000000', 'd * 10 + o % 10'))}, ${raw(numberedUuid('0e000000', 'd * 20 + o'))},
               ${raw(hashedUuid('session', 'skey'))}, ${raw(hashedUuid('anonymous', 'skey'))}, NULL, 'Guest', 'Catalog', 'Catalog',
               closed, t, if(closed, t + 120, NULL), if(closed, toUInt32(30 + (k * 37 + d) % 600), NULL), t, now()
        FROM (${views})`

/** `keys`: a subquery with skey (the session key), guest and t (StartedAt). */
const sessionsInsert = (db: ReturnType<typeof ident>, keys: SqlFragment) =>
  sql`INSERT INTO ${db}.session_facts
        (FactId, SourceEventId, SessionId, AnonymousId, UserId, ViewerKind, TenantId, BrandId, DeveloperId, EventTime, StartedAt, LastActivityAt, DurationSeconds, IngestionTime)
        SELECT toString(${raw(hashedUuid('session-fact', 'skey'))}), toString(${raw(hashedUuid('session-event', 'skey'))}), ${raw(hashedUuid('session', 'skey'))},
               ${raw(hashedUuid('anonymous', 'skey'))}, if(guest, NULL, ${raw(hashedUuid('user', 'skey'))}), if(guest, 'Guest', 'User'),
               toUUID('00000000-0000-0000-0000-000000000000'), NULL, NULL, t, t, t + 600, toUInt32(30 + cityHash64(skey) % 3600), now()
        FROM (${keys})`

/** `groups`: a subquery with g (a developer-day-object row's number) and d (its developer index). */
const funnelInsert = (db: ReturnType<typeof ident>, groups: SqlFragment) =>
  sql`INSERT INTO ${db}.funnel_events (DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId, PropertyObjectId, EventDate, Stage, BusinessKey)
        SELECT ${raw(developer('d'))}, ${raw(hierarchy('d', 'o'))},
               toDate('2026-01-01') + h % ${raw(DAYS)}, arrayElement(${raw(STAGES)}, toUInt64(cityHash64(d, h, e) % 8 + 1)), ${raw(hashedUuid('business', 'ekey'))}
        FROM (SELECT e, d, h, intDiv(h, ${raw(DAYS)}) % ${raw(OBJECTS)} AS o, (d * ${raw(DAYS * OBJECTS)} + h) * ${raw(FUNNEL_EVENTS_PER_ROW)} + e AS ekey
              FROM (${groups}))`

export const loadStatements = (database: string, scale: number, heavy = 0): { readonly what: string; readonly statement: SqlFragment }[] => {
  const db = ident(database)
  const s = sizesAt(scale)
  const D = raw(s.developers)
  const H = raw(HEAVY_DEVELOPER)
  const regular = [
    {
      what: `${s.views.toLocaleString('en')} view facts`,
      // closed when (k + d) % 10 < 7; the pair's session (d / 2, k)
      statement: viewsInsert(db, sql`
        SELECT number % ${D} AS d, intDiv(number, ${D}) AS k, d * ${raw(VIEWS_PER_DEVELOPER)} + k AS vkey, k % ${raw(OBJECTS)} AS o,
               toUInt8((k + d) % 10 < 7) AS closed, ${raw(pairSessionKey('intDiv(d, 2)', 'k'))} AS skey,
               ${raw(inYear('skey'))} + (d % 2) * 60 AS t
        FROM system.numbers LIMIT ${raw(s.views)}`),
    },
    {
      what: `${s.sessions.toLocaleString('en')} session facts (${(s.sessions / 2).toLocaleString('en')} with the views of a developer pair)`,
      statement: sessionsInsert(db, sql`
        SELECT number < ${raw(s.sessions / 2)} AS paired,
               if(paired, ${raw(pairSessionKey(`number % ${s.developers / 2}`, `intDiv(number, ${s.developers / 2})`))}, number + ${raw(ORPHAN_KEY_BASE)}) AS skey,
               skey % 3 = 0 AS guest, ${raw(inYear('skey'))} AS t
        FROM system.numbers LIMIT ${raw(s.sessions)}`),
    },
    {
      what: `a year of funnel rows (${s.funnelRows.toLocaleString('en')} developer-day-object rows from ${s.funnelEvents.toLocaleString('en')} events)`,
      statement: funnelInsert(db, sql`
        SELECT number % ${raw(FUNNEL_EVENTS_PER_ROW)} AS e, intDiv(number, ${raw(FUNNEL_EVENTS_PER_ROW)}) AS g, g % ${D} AS d, intDiv(g, ${D}) AS h
        FROM system.numbers LIMIT ${raw(s.funnelEvents)}`),
    },
    {
      what: `${s.developers} developer names`,
      statement: sql`INSERT INTO ${db}.dim_developer (Id, Name, UpsertedAt, Version, IngestionTime)
        SELECT ${raw(developer('number'))}, concat('Developer ', toString(number)), now(), toUInt64(1), now()
        FROM system.numbers LIMIT ${D}`,
    },
  ]
  if (heavy === 0) return regular
  const N = raw(heavy)
  const funnelEvents = DAYS * OBJECTS * FUNNEL_EVENTS_PER_ROW
  return [
    ...regular,
    {
      what: `the heavy developer's ${heavy.toLocaleString('en')} view facts, each in a session of its own`,
      statement: viewsInsert(db, sql`
        SELECT ${H} AS d, number AS k, ${raw(HEAVY_KEY_BASE)} + k AS vkey, k % ${raw(OBJECTS)} AS o,
               toUInt8(k % 10 < 7) AS closed, ${raw(HEAVY_KEY_BASE)} + k AS skey, ${raw(inYear('skey'))} AS t
        FROM system.numbers LIMIT ${N}`),
    },
    {
      what: `the heavy developer's ${heavy.toLocaleString('en')} session facts`,
      statement: sessionsInsert(db, sql`
        SELECT ${raw(HEAVY_KEY_BASE)} + number AS skey, skey % 3 = 0 AS guest, ${raw(inYear('skey'))} AS t
        FROM system.numbers LIMIT ${N}`),
    },
    {
      what: `the heavy developer's year of funnel rows (${(DAYS * OBJECTS).toLocaleString('en')})`,
      statement: funnelInsert(db, sql`
        SELECT number % ${raw(FUNNEL_EVENTS_PER_ROW)} AS e, intDiv(number, ${raw(FUNNEL_EVENTS_PER_ROW)}) AS h, ${H} AS d
        FROM system.numbers LIMIT ${raw(funnelEvents)}`),
    },
    {
      what: 'the heavy developer\'s name',
      statement: sql`INSERT INTO ${db}.dim_developer (Id, Name, UpsertedAt, Version, IngestionTime)
        SELECT ${raw(developer(String(HEAVY_DEVELOPER)))}, 'Heavy developer', now(), toUInt64(1), now()`,
    },
  ]
}

/** Every table the load or the ingest writes (raw facts, serving and link tables), merged after the load. */
export const MERGED = [
  'property_object_view_facts', 'session_facts', 'funnel_daily', 'dim_developer',
  'developer_view_facts', 'developer_session_facts', 'view_links', 'session_view_links', 'session_links', 'funnel_developer_daily',
]
const META = 'bench_read_meta'

/** The scale, heavy developer and layout a loaded database was made with; undefined when it has none (a partial or an old load). */
export const loadedScale = async (session: ClickHouseSession): Promise<{ scale: number; heavy: number; layout: string } | undefined> => {
  const [exists] = await session.select<{ result: number | string }>(sql`EXISTS TABLE ${ident(session.database)}.${ident(META)}`)
  if (Number(exists?.result ?? 0) !== 1) return undefined
  const [row] = await session.select<{ Scale: number; Heavy?: number; Layout: string }>(sql`SELECT * FROM ${ident(session.database)}.${ident(META)} LIMIT 1`)
  return row ? { scale: Number(row.Scale), heavy: Number(row.Heavy ?? 0), layout: row.Layout } : undefined
}

/** Throws unless the database was loaded completely at this scale and heavy developer with this layout. */
export const checkLoaded = async (session: ClickHouseSession, scale: number, heavy = 0): Promise<void> => {
  const loaded = await loadedScale(session)
  if (!loaded) throw new Error(`${session.database} has no complete bench:read load (no ${META}): load it again`)
  if (loaded.layout !== LAYOUT) throw new Error(`${session.database} holds data of layout "${loaded.layout}", this bench generates "${LAYOUT}": load it again`)
  if (loaded.scale !== scale) throw new Error(`${session.database} was loaded at --scale ${loaded.scale}, not ${scale}`)
  if (loaded.heavy !== heavy) throw new Error(`${session.database} was loaded with --heavy ${loaded.heavy}, not ${heavy}`)
}

/** A partition id as system.parts names it (digits, or `all`), quoted. */
export const partitionId = (id: string): SqlFragment => {
  if (!/^[0-9a-z_-]+$/i.test(id)) throw new TypeError(`not a partition id: ${JSON.stringify(id)}`)
  return raw(`'${id}'`)
}

const seconds = (since: number) => ((Date.now() - since) / 1000).toFixed(1)

/**
 * Loads a migrated, empty database: the raw facts (INSERT … SELECT; migration 0008's
 * materialized views fill the link tables as it goes), then the serving tables with
 * backfillServing (its link steps are recorded as done: the views did them), then OPTIMIZE …
 * FINAL on every table, as a year of background merges would have left them (a fresh insert
 * leaves dozens of parts, each read on every query), and last the scale, so that only a complete
 * load is reused.
 */
export const loadBenchData = async (url: string, session: ClickHouseSession, scale: number, log: (line: string) => void, heavy = 0): Promise<void> => {
  const database = session.database
  const db = ident(database)
  // Its own client: on a busy machine these statements outlast the store's 30 s request timeout.
  const client = createClient({ url, request_timeout: 3_600_000, log: { level: ClickHouseLogLevel.OFF } })
  const run = (statement: SqlFragment) => client.command({ query: render(statement, 'inline').query })
  try {
    for (const { what, statement } of loadStatements(database, scale, heavy)) {
      const started = Date.now()
      await run(statement)
      log(`loaded ${what} in ${seconds(started)} s`)
    }
    // The materialized views filled the link tables during the inserts: backfill only the serving rows.
    await run(sql`INSERT INTO ${db}.serving_backfill (Step, Chunk, DoneAt)
      SELECT step, m, now() FROM (SELECT DISTINCT toStartOfMonth(EventTime) AS m FROM ${db}.property_object_view_facts)
      ARRAY JOIN ['view_links', 'session_view_links'] AS step`)
    await run(sql`INSERT INTO ${db}.serving_backfill (Step, Chunk, DoneAt)
      SELECT 'session_links', m, now() FROM (SELECT DISTINCT toStartOfMonth(EventTime) AS m FROM ${db}.session_facts)`)
    const started = Date.now()
    let last: BackfillProgress | undefined
    await backfillServing(session, (p) => void (last = p))
    log(`backfillServing: serving tables filled in ${seconds(started)} s (${last?.of ?? 0} days of view links)`)
    const merging = Date.now()
    for (const table of MERGED) await run(sql`OPTIMIZE TABLE ${db}.${ident(table)} FINAL`)
    log(`merged the parts of ${MERGED.length} tables (OPTIMIZE … FINAL) in ${seconds(merging)} s`)
    await run(sql`CREATE TABLE ${db}.${ident(META)} (Scale UInt32, Heavy UInt32, Layout String, LoadedAt DateTime) ENGINE = TinyLog`)
    await client.insert({ table: `${database}.${META}`, values: [{ Scale: scale, Heavy: heavy, Layout: LAYOUT, LoadedAt: Math.floor(Date.now() / 1000) }], format: 'JSONEachRow' })
  } finally {
    await client.close()
  }
}

/**
 * A reused database has the parts the last run's writer left: merges them (OPTIMIZE … FINAL of
 * every partition that has more than one part), so that each run reads what a fresh load leaves.
 */
export const settle = async (url: string, session: ClickHouseSession, log: (line: string) => void): Promise<void> => {
  const rows = await session.select<{ table: string; id: string }>(sql`
    SELECT table, partition_id AS id FROM system.parts
    WHERE database = ${name(session.database)} AND active GROUP BY table, partition_id HAVING count() > 1 ORDER BY table, id`)
  if (rows.length === 0) return
  const client = createClient({ url, request_timeout: 3_600_000, log: { level: ClickHouseLogLevel.OFF } })
  try {
    const started = Date.now()
    for (const r of rows) await client.command({ query: render(sql`OPTIMIZE TABLE ${ident(session.database)}.${ident(r.table)} PARTITION ID ${partitionId(r.id)} FINAL`, 'inline').query })
    log(`merged ${rows.length} partitions that had more than one part in ${seconds(started)} s`)
  } finally {
    await client.close()
  }
}
