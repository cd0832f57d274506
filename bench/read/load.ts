import { createClient, type ClickHouseClient } from '@clickhouse/client'
import { ident, render, sql, type SqlFragment } from '../../src/adapters/clickhouse/sql-fragment.js'
import type { Guid } from '../../src/domain/guid.js'

// The read benchmark's data, generated on the server (INSERT … SELECT FROM numbers()): a year
// (2026) of view facts, session facts and funnel rows for DEVELOPERS developers. Ids that other
// rows refer to are derived from numbers; the rest are random (generateUUIDv4).
export const DEVELOPERS = 100
export const VIEW_FACTS = 1_000_000
export const SESSION_FACTS = 1_000_000
/** Property objects per developer; funnel rows: one per developer, day and property object. */
const OBJECTS = 20
const FUNNEL_EVENTS_PER_ROW = 4
const YEAR_SECONDS = 365 * 86_400

/** A UUID with the given 8-hex-digit prefix and `n` (a UInt expression) as its last 12 decimal digits. */
const numberedUuid = (prefix: string, n: string): string =>
  `toUUID(concat('${prefix}-0000-4000-8000-', substring(concat('000000000000', toString(${n})), length(toString(${n})) + 1)))`

/** The developer of index d, as the SQL above derives it. */
export const developerId = (d: number): Guid => `de000000-0000-4000-8000-${String(d).padStart(12, '0')}` as Guid

const developer = (d: string) => numberedUuid('de000000', d)
const object = (d: string, o: string) => numberedUuid('0b000000', `${d} * ${OBJECTS} + ${o}`)
const inYear = (n: string) => `toDateTime('2026-01-01 00:00:00', 'UTC') + (${n} * 7919) % ${YEAR_SECONDS}`
const STAGES = "['Views', 'Favorites', 'Selections', 'Leads', 'Bookings', 'BookingsPaid', 'Deals', 'DealsCompleted']"

// Built from constants only (numbers and the prefixes above): no input reaches this SQL.
const raw = (text: string): SqlFragment => ({ kind: 'fragment', strings: [text], parts: [] })

/** How many rows each statement makes; the defaults are the benchmark's store, `ingestTick` a flush's worth. */
interface Sizes {
  readonly views: number
  readonly sessions: number
  readonly funnelEvents: number
}

const STORE: Sizes = { views: VIEW_FACTS, sessions: SESSION_FACTS, funnelEvents: DEVELOPERS * 365 * OBJECTS * FUNNEL_EVENTS_PER_ROW }

export const loadStatements = (database: string, sizes: Sizes = STORE): { readonly what: string; readonly statement: SqlFragment }[] => {
  const db = ident(database)
  return [
    {
      what: `${VIEW_FACTS.toLocaleString('en')} view facts`,
      // view n: developer n % 100, session n / 2 (so sessions 500,000 and up have no view), 70 % closed
      statement: sql`INSERT INTO ${db}.property_object_view_facts
        (FactId, SourceEventId, PropertyObjectViewId, PropertyObjectId, DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId,
         SessionId, AnonymousId, UserId, ViewerKind, ViewSource, ViewSourceRaw, IsClosed, ViewedAt, LastActivityAt, DurationSeconds, EventTime, IngestionTime)
        SELECT toString(generateUUIDv4()), toString(generateUUIDv4()), generateUUIDv4(), ${raw(object('d', 'o'))}, ${raw(developer('d'))},
               ${raw(numberedUuid('0a000000', 'd * 4 + o % 4'))}, ${raw(numberedUuid('0c000000', 'd * 8 + o % 8'))},
               ${raw(numberedUuid('0d000000', 'd * 10 + o % 10'))}, ${raw(numberedUuid('0e000000', 'd * 20 + o'))},
               ${raw(numberedUuid('5e000000', 'intDiv(number, 2)'))}, generateUUIDv4(), NULL, 'Guest', 'Catalog', 'Catalog',
               closed, t, if(closed, t + 120, NULL), if(closed, toUInt32(30 + number % 600), NULL), t, now()
        FROM (SELECT number, number % ${raw(String(DEVELOPERS))} AS d, intDiv(number, ${raw(String(DEVELOPERS))}) % ${raw(String(OBJECTS))} AS o,
                     toUInt8(number % 10 < 7) AS closed, ${raw(inYear('number'))} AS t
              FROM system.numbers LIMIT ${raw(String(sizes.views))})`,
    },
    {
      what: `${SESSION_FACTS.toLocaleString('en')} session facts`,
      statement: sql`INSERT INTO ${db}.session_facts
        (FactId, SourceEventId, SessionId, AnonymousId, UserId, ViewerKind, TenantId, BrandId, DeveloperId, EventTime, StartedAt, LastActivityAt, DurationSeconds, IngestionTime)
        SELECT toString(generateUUIDv4()), toString(generateUUIDv4()), ${raw(numberedUuid('5e000000', 'number'))}, generateUUIDv4(),
               if(number % 3 = 0, NULL, generateUUIDv4()), if(number % 3 = 0, 'Guest', 'User'), toUUID('00000000-0000-0000-0000-000000000000'),
               NULL, NULL, t, t, t + 600, toUInt32(30 + number % 3600), now()
        FROM (SELECT number, ${raw(inYear('number'))} AS t FROM system.numbers LIMIT ${raw(String(sizes.sessions))})`,
    },
    {
      what: `a year of funnel rows (${(DEVELOPERS * 365 * OBJECTS).toLocaleString('en')} developer-day-object rows from ${(DEVELOPERS * 365 * OBJECTS * FUNNEL_EVENTS_PER_ROW).toLocaleString('en')} events)`,
      statement: sql`INSERT INTO ${db}.funnel_events (DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId, PropertyObjectId, EventDate, Stage, BusinessKey)
        SELECT ${raw(developer('d'))}, ${raw(numberedUuid('0a000000', 'd * 4 + o % 4'))}, ${raw(numberedUuid('0c000000', 'd * 8 + o % 8'))},
               ${raw(numberedUuid('0d000000', 'd * 10 + o % 10'))}, ${raw(numberedUuid('0e000000', 'd * 20 + o'))}, ${raw(object('d', 'o'))},
               toDate('2026-01-01') + day, arrayElement(${raw(STAGES)}, toUInt64(cityHash64(number) % 8 + 1)), generateUUIDv4()
        FROM (SELECT number, intDiv(number, ${raw(String(FUNNEL_EVENTS_PER_ROW))}) AS g, g % ${raw(String(DEVELOPERS))} AS d,
                     intDiv(g, ${raw(String(DEVELOPERS))}) % 365 AS day, intDiv(g, ${raw(String(DEVELOPERS * 365))}) % ${raw(String(OBJECTS))} AS o
              FROM system.numbers LIMIT ${raw(String(sizes.funnelEvents))})`,
    },
    {
      what: `${DEVELOPERS} developer names`,
      statement: sql`INSERT INTO ${db}.dim_developer (Id, Name, UpsertedAt, Version, IngestionTime)
        SELECT ${raw(developer('number'))}, concat('Developer ', toString(number)), now(), toUInt64(1), now()
        FROM system.numbers LIMIT ${raw(String(DEVELOPERS))}`,
    },
  ]
}

const MERGED = ['property_object_view_facts', 'session_facts', 'funnel_daily', 'dim_developer']

/**
 * Runs the statements, timing each, then merges each table's parts as a year of background
 * merges would have (a fresh insert leaves dozens of parts, each read on every query).
 */
export const loadBenchData = async (url: string, database: string, log: (line: string) => void): Promise<void> => {
  // Its own client: on a busy machine these statements outlast the store's 30 s request timeout.
  const client = createClient({ url, request_timeout: 900_000 })
  const run = (statement: SqlFragment) => client.command({ query: render(statement, 'inline').query })
  try {
    for (const { what, statement } of loadStatements(database)) {
      const started = Date.now()
      await run(statement)
      log(`loaded ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
    }
    const started = Date.now()
    for (const table of MERGED) await run(sql`OPTIMIZE TABLE ${ident(database)}.${ident(table)} FINAL`)
    log(`merged the parts in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } finally {
    await client.close()
  }
}

/**
 * What a running ingest does to the read side: one small insert into each fact table (a new
 * part each, so the read cache's versions change). The rows repeat the first of the store's
 * shapes with new random ids: counts grow by a little, which the load does not check.
 */
export const ingestTick = async (client: ClickHouseClient, database: string): Promise<void> => {
  for (const { statement } of loadStatements(database, { views: 10, sessions: 10, funnelEvents: 40 }).slice(0, 3)) {
    await client.command({ query: render(statement, 'inline').query })
  }
}
