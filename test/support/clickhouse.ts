import { inject } from 'vitest'
import { basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ClickHouseDataVersions } from '../../src/adapters/clickhouse/clickhouse-data-versions.js'
import { CachedDimensionReader } from '../../src/adapters/cache/cached-dimension-reader.js'
import { ClickHouseDimensionReader } from '../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseFactStore } from '../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingIndex } from '../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ViewSessionSource } from '../../src/adapters/clickhouse/merged-views.sql.js'
import { ServingFactStore } from '../../src/application/serving/serving-fact-store.js'
import { DayRecordsReadModel } from '../../src/application/read/day-records-read-model.js'
import { BoundedReadModel } from '../../src/application/read/bounded-read-model.js'
import { GatheredReads } from '../../src/application/read/gathered-reads.js'
import { ClickHouseDayRecords } from '../../src/adapters/clickhouse/clickhouse-day-records.js'
import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import type { ReadModel } from '../../src/application/ports/read-model.port.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { LOCAL_SUFFIX } from '../../src/adapters/clickhouse/cluster-ddl.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { systemClock } from '../../src/adapters/clock/system-clock.js'
import { CachedReadModel } from '../../src/adapters/cache/cached-read-model.js'
import { StoreError } from '../../src/application/ports/store-error.js'
import type { DimensionReaderFixture } from '../../src/testing/contracts/dimension-reader.contract.js'
import type { StageProgressFixture } from '../../src/testing/contracts/stage-progress.contract.js'
import { ClickHouseStageProgressReader } from '../../src/adapters/clickhouse/clickhouse-stage-progress.js'
import type { FactStoreFixture } from '../../src/testing/contracts/fact-store.contract.js'

/**
 * The database of one test file on the shared server, named after the file
 * (`read-cache.test.ts` → `test_read_cache`): files that run at once never share a database, and a
 * file's reset drops only its own. Call it with the test file's `import.meta.url`.
 */
export const databaseOfTestFile = (testFileUrl: string): string =>
  `test_${basename(fileURLToPath(testFileUrl)).replace(/\.test\.ts$/, '').replace(/[^A-Za-z0-9]/g, '_')}`

/** URL of the server the global setup started (or found running). */
export const clickhouseUrl = (): string => inject('clickhouseUrl') ?? process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123'

/** Drops and re-creates the database through the migrations: every case starts empty. */
export const resetDatabase = async (session: ClickHouseSession): Promise<void> => {
  const { cluster } = session.options
  // Both names are checked identifiers (config, SessionOptions); ON CLUSTER takes no fragment.
  if (cluster) await session.ddl(`DROP DATABASE IF EXISTS ${session.database} ON CLUSTER ${cluster}`)
  else await session.command(sql`DROP DATABASE IF EXISTS ${ident(session.database)}`)
  await migrate(session)
}

const MERGED_TABLES = ['session_facts', 'property_object_view_facts', 'developer_view_facts', 'developer_session_facts', 'view_links', 'session_links', 'funnel_daily', 'dim_property_object', 'dim_developer', 'dim_project', 'dim_building', 'dim_layout_group', 'dim_layout']

/**
 * OPTIMIZE … FINAL on every merged table. 18.16 may silently skip a merge, so we ask it to throw
 * instead (optimize_throw_if_noop) and retry a few times. On a cluster: the replicated local
 * tables, through this replica (18.16 fails OPTIMIZE … ON CLUSTER on two replicas of a shard).
 */
export const forceMerge = async (session: ClickHouseSession): Promise<void> => {
  const db = ident(session.database)
  for (const table of MERGED_TABLES.map((t) => (session.options.cluster ? `${t}${LOCAL_SUFFIX}` : t))) {
    for (let attempt = 1; ; attempt++) {
      try {
        await session.command(sql`OPTIMIZE TABLE ${db}.${ident(table)} FINAL`, { optimize_throw_if_noop: 1 })
        break
      } catch (e) {
        // 388 CANNOT_ASSIGN_OPTIMIZE: a merge is already running or there is nothing to merge yet.
        // A replicated table of 18.16 says "nothing to merge" (a single part) as 49 "Unknown log entry type: 0".
        if (session.options.cluster && e instanceof StoreError && e.code === 'CLICKHOUSE_49' && e.message.includes('Unknown log entry type: 0')) break
        if (!(e instanceof StoreError && e.code === 'CLICKHOUSE_388') || attempt >= 10) throw e
        await new Promise((r) => setTimeout(r, 200))
      }
    }
  }
}

/** The fact store as the composition root builds it: the facts, then the serving rows (migration 0008). */
export const servingFactStore = (session: ClickHouseSession): FactStore => new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session))

/** The same with the read model the composition root builds on it: whole days from day records (migration 0012), the rest from the serving rows. */
export const recordsStore = (session: ClickHouseSession): { store: FactStore; readModel: ReadModel } => ({
  store: servingFactStore(session),
  readModel: new DayRecordsReadModel(new ClickHouseReadModel(session, 'serving'), new ClickHouseDayRecords(session)),
})

/** Reads from the serving tables, from the raw facts (the definition, the oracle), or whole days from the day records (as composed). */
export const factStoreFixture = async (session: ClickHouseSession, source: ViewSessionSource | 'records' = 'serving'): Promise<FactStoreFixture> => {
  await resetDatabase(session)
  const { store, readModel } = source === 'records' ? recordsStore(session) : { store: servingFactStore(session), readModel: new ClickHouseReadModel(session, source) }
  return { store, readModel, forceMerge: () => forceMerge(session) }
}

/** The same, reading through what the composition root puts in front of a single server: the read cache, the gathered funnel reads, the bounds, the day records. */
export const cachedFactStoreFixture = async (session: ClickHouseSession): Promise<FactStoreFixture> => {
  const f = await factStoreFixture(session, 'records')
  const gathered = new GatheredReads(new BoundedReadModel(f.readModel, { maxConcurrent: 2, maxQueued: 100 }))
  return { ...f, readModel: new CachedReadModel(gathered, new ClickHouseDataVersions(session), systemClock, { maxEntries: 1000, maxStaleMs: 0 }) }
}

export const stageProgressFixture = async (session: ClickHouseSession): Promise<StageProgressFixture> => {
  await resetDatabase(session)
  return { store: new ClickHouseFactStore(session), progress: new ClickHouseStageProgressReader(session) }
}

export const dimensionReaderFixture = async (session: ClickHouseSession): Promise<DimensionReaderFixture & { dimensions: ClickHouseDimensionReader }> => {
  await resetDatabase(session)
  return { store: new ClickHouseFactStore(session), dimensions: new ClickHouseDimensionReader(session) }
}

/** The same reader behind the process's dimension cache, its fact store feeding it (as the composition wires them). */
export const cachedDimensionReaderFixture = async (session: ClickHouseSession): Promise<DimensionReaderFixture> => {
  const { store, dimensions } = await dimensionReaderFixture(session)
  const cache = new CachedDimensionReader(dimensions, systemClock, { maxEntries: 100, maxAgeMs: 60_000 })
  return { store: cache.feeding(store), dimensions: cache }
}
