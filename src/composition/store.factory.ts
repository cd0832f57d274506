import type { DimensionReader } from '../application/ports/dimension-reader.port.js'
import type { StorePressure } from '../application/ports/store-pressure.port.js'
import type { LinkPartitions } from '../application/ports/link-partitions.port.js'
import type { ServingGaps } from '../application/ports/serving-gaps.port.js'
import type { ServingIndex } from '../application/ports/serving-index.port.js'
import type { FactStore } from '../application/ports/fact-store.port.js'
import type { StageProgressReader } from '../application/ports/stage-progress.port.js'
import { InMemoryStageProgressReader } from '../adapters/memory/in-memory-stage-progress.js'
import type { ReadModel } from '../application/ports/read-model.port.js'
import type { DataVersionReader } from '../application/ports/data-version.port.js'
import { embeddedAdapters, serverAdapters, type ClickHouseAdapters } from '../adapters/clickhouse/clickhouse-adapters.factory.js'
import { InMemoryDimensionReader } from '../adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../adapters/memory/in-memory-fact-store.js'
import { InMemoryReadModel } from '../adapters/memory/in-memory-read-model.js'
import { InMemoryServingIndex } from '../adapters/memory/in-memory-serving-index.js'
import { ServingFactStore } from '../application/serving/serving-fact-store.js'
import type { InMemoryTables } from '../adapters/memory/in-memory-tables.js'
import { sql } from '../adapters/clickhouse/sql-fragment.js'
import { migrate, pendingMigrations } from '../adapters/clickhouse/clickhouse-migrator.js'
import { servingIncomplete } from '../adapters/clickhouse/serving-completeness.js'
import type { DayRecordStore } from '../application/ports/day-records.port.js'
import { InMemoryDayRecords } from '../adapters/memory/in-memory-day-records.js'
import type { IngestConfig } from './config.js'

// A round trip every time (the session caches its connection): also the readiness check's ping.
const withProbe = (a: ClickHouseAdapters): StoreAdapters => ({
  ...a,
  probe: async () => void (await a.session.select(sql`SELECT 1 AS ok`)),
  migrate: () => migrate(a.session),
  pendingMigrations: () => pendingMigrations(a.session),
  servingIncomplete: () => servingIncomplete(a.session),
  close: async () => void (await Promise.all([a.session.close(), a.readSession === a.session ? undefined : a.readSession.close()])),
})

export interface StoreAdapters {
  readonly factStore: FactStore
  readonly dimensionReader: DimensionReader
  readonly readModel: ReadModel
  readonly stageProgress: StageProgressReader
  /** Day records of session metrics and the counts that stamp them, where the store keeps them: whole days are read from them. */
  readonly dayRecords?: DayRecordStore
  /** What the store holds now, where it can tell (a single ClickHouse server, the embedded one): lets reads be cached. */
  readonly dataVersions?: DataVersionReader
  /** Active parts per partition, where the store has parts (ClickHouse): inserts grow under pressure. */
  readonly pressure?: StorePressure
  /** The serving tables' link partitions, where the store has them (ClickHouse): kept within the accepted lateness. */
  readonly linkPartitions?: LinkPartitions
  /** Where lookups can miss an acknowledged insert (a replicated cluster) or a host may lose a serving step: the reconciliation's store. */
  readonly reconcile?: { readonly gaps: ServingGaps; readonly serving: ServingIndex }
  /** Connects (checking the server's version once) and pings: the start-up and readiness check. */
  readonly probe: () => Promise<void>
  /** Applies the package's migrations/ that the store lacks; the versions applied (none for memory). */
  readonly migrate: () => Promise<readonly string[]>
  /** The package's migrations the store lacks (none for memory): the service refuses to start on an outdated schema. */
  readonly pendingMigrations: () => Promise<readonly string[]>
  /** Why the serving tables miss stored facts (a backfill not finished), or undefined: the service refuses to start while they do. */
  readonly servingIncomplete: () => Promise<string | undefined>
  /** Releases the store's connections (the server's keep-alive sockets, chdb's session). */
  readonly close: () => Promise<void>
}

/**
 * The store adapters DEV_STATS_STORE selects. Synchronous: the ClickHouse ones connect lazily
 * on first use (chdb's native library is not even loaded before that).
 */
export const storeFor = (config: IngestConfig, tables: () => InMemoryTables): StoreAdapters => {
  const options = { readTimeoutSeconds: config.readQueries.timeoutSeconds }
  switch (config.store) {
    case 'clickhouse':
      return withProbe(serverAdapters(config.clickhouse, options, config.readQueries.maxConcurrent))
    case 'embedded':
      return withProbe(embeddedAdapters({ path: config.embedded.path, database: config.clickhouse.database }, options))
    case 'memory': {
      const t = tables()
      return {
        factStore: new ServingFactStore(new InMemoryFactStore(t), new InMemoryServingIndex(t)),
        dimensionReader: new InMemoryDimensionReader(t),
        readModel: new InMemoryReadModel(t),
        dayRecords: new InMemoryDayRecords(t),
        stageProgress: new InMemoryStageProgressReader(t),
        probe: async () => undefined,
        migrate: async () => [],
        pendingMigrations: async () => [],
        servingIncomplete: async () => undefined,
        close: async () => undefined,
      }
    }
  }
}
