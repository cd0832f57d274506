import type { DimensionReader } from '../../application/ports/dimension-reader.port.js'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { StageProgressReader } from '../../application/ports/stage-progress.port.js'
import { ClickHouseStageProgressReader } from './clickhouse-stage-progress.js'
import { ClickHouseStorePressure } from './clickhouse-store-pressure.js'
import { ClickHouseLinkPartitions } from './clickhouse-link-partitions.js'
import { ClickHouseServingGaps } from './clickhouse-serving-gaps.js'
import type { ServingGaps } from '../../application/ports/serving-gaps.port.js'
import type { ServingIndex } from '../../application/ports/serving-index.port.js'
import type { LinkPartitions } from '../../application/ports/link-partitions.port.js'
import type { StorePressure } from '../../application/ports/store-pressure.port.js'
import type { ReadModel } from '../../application/ports/read-model.port.js'
import type { DataVersionReader } from '../../application/ports/data-version.port.js'
import { ClickHouseDataVersions } from './clickhouse-data-versions.js'
import { ClickHouseDimensionReader } from './clickhouse-dimension-reader.js'
import { ClickHouseFactStore } from './clickhouse-fact-store.js'
import { migrate } from './clickhouse-migrator.js'
import { ClickHouseReadModel } from './clickhouse-read-model.js'
import { ClickHouseServingIndex } from './clickhouse-serving-index.js'
import { ServingFactStore } from '../../application/serving/serving-fact-store.js'
import type { DayRecordStore } from '../../application/ports/day-records.port.js'
import { ClickHouseDayRecords } from './clickhouse-day-records.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { embeddedSession, type EmbeddedSettings } from './embedded-session.factory.js'
import { serverSession, type ServerSettings } from './server-session.factory.js'

export interface ClickHouseAdapters {
  /** The ingest's connections: inserts, lookups, probes, migrations. */
  readonly session: ClickHouseSession
  /** The read model's and the read cache's connections: the ingest's own (the embedded store) or a client of their own (a server). */
  readonly readSession: ClickHouseSession
  readonly factStore: FactStore
  readonly dimensionReader: DimensionReader
  readonly readModel: ReadModel
  readonly dayRecords: DayRecordStore
  readonly stageProgress: StageProgressReader
  /** Absent on a cluster: its versions would have to ask every replica on every read, as the day records do (docs/clickhouse.md). */
  readonly dataVersions?: DataVersionReader
  readonly pressure: StorePressure
  readonly linkPartitions: LinkPartitions
  /** What the reconciliation reads (the serving rows the link tables call for and lack) and writes through. */
  readonly reconcile: { readonly gaps: ServingGaps; readonly serving: ServingIndex }
}

export interface AdapterOptions {
  readonly readTimeoutSeconds?: number
}

const over = (session: ClickHouseSession, options: AdapterOptions, readSession = session): ClickHouseAdapters => {
  const timeout = options.readTimeoutSeconds ?? 0
  const serving = new ClickHouseServingIndex(session)
  return {
    session,
    readSession,
    factStore: new ServingFactStore(new ClickHouseFactStore(session), serving),
    dimensionReader: new ClickHouseDimensionReader(session),
    readModel: new ClickHouseReadModel(readSession, 'serving', timeout),
    dayRecords: new ClickHouseDayRecords(readSession, timeout),
    stageProgress: new ClickHouseStageProgressReader(readSession),
    pressure: new ClickHouseStorePressure(session),
    linkPartitions: new ClickHouseLinkPartitions(session),
    reconcile: { gaps: new ClickHouseServingGaps(session), serving },
    ...(session.options.cluster ? {} : { dataVersions: new ClickHouseDataVersions(readSession, timeout) }),
  }
}

/**
 * Reads beside the read API's own that may be out at once: the read cache's version probes (one of
 * all developers' parts, one of the asked developers' counts) and the funnel's stage freshness.
 */
const READ_SIDE_PROBES = 3

/**
 * The read API's selects go first on the server: while one runs, the ingest's lookups pause
 * (ClickHouse's `priority`; inserts and merges do not). During a catch-up after an outage the
 * lookups read the most rows of all queries (docs/soak.md).
 */
const READ_PRIORITY = 1
const INGEST_PRIORITY = 2

/**
 * A server's schema is owned by `npm run migrate` (run by deployment), not by the ingest process.
 * Reads get a client of their own, with a socket for each read allowed at once
 * (`readConcurrency`) and each probe: a read never waits for a socket behind the ingest's
 * inserts, so its time limit runs from when it is sent.
 */
export const serverAdapters = (settings: ServerSettings, options: AdapterOptions = {}, readConcurrency = 4): ClickHouseAdapters =>
  over(serverSession(settings, { priority: INGEST_PRIORITY }), options, serverSession(settings, { priority: READ_PRIORITY }, readConcurrency + READ_SIDE_PROBES))

/**
 * The embedded store belongs to this process alone, so it migrates itself on first use (the
 * runner is idempotent): `npm run demo` needs no separate step and no server.
 */
export const embeddedAdapters = (settings: EmbeddedSettings, options: AdapterOptions = {}): ClickHouseAdapters =>
  over(embeddedSession(settings, { onOpen: async (session) => void (await migrate(session)) }), options)
