import type { DimensionReader } from '../../application/ports/dimension-reader.port.js'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { StageProgressReader } from '../../application/ports/stage-progress.port.js'
import { ClickHouseStageProgressReader } from './clickhouse-stage-progress.js'
import { ClickHouseStorePressure } from './clickhouse-store-pressure.js'
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
import type { ClickHouseSession } from './clickhouse-session.js'
import { embeddedSession, type EmbeddedSettings } from './embedded-session.factory.js'
import { serverSession, type ServerSettings } from './server-session.factory.js'

export interface ClickHouseAdapters {
  readonly session: ClickHouseSession
  readonly factStore: FactStore
  readonly dimensionReader: DimensionReader
  readonly readModel: ReadModel
  readonly stageProgress: StageProgressReader
  /** Absent on a cluster: one server's system.parts does not see the other shards' writes. */
  readonly dataVersions?: DataVersionReader
  readonly pressure: StorePressure
}

const over = (session: ClickHouseSession, readTimeoutSeconds = 0): ClickHouseAdapters => ({
  session,
  factStore: new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session)),
  dimensionReader: new ClickHouseDimensionReader(session),
  readModel: new ClickHouseReadModel(session, 'serving', readTimeoutSeconds),
  stageProgress: new ClickHouseStageProgressReader(session),
  pressure: new ClickHouseStorePressure(session),
  ...(session.options.cluster ? {} : { dataVersions: new ClickHouseDataVersions(session, readTimeoutSeconds) }),
})

/** A server's schema is owned by `npm run migrate` (run by deployment), not by the ingest process. */
export const serverAdapters = (settings: ServerSettings, readTimeoutSeconds = 0): ClickHouseAdapters => over(serverSession(settings), readTimeoutSeconds)

/**
 * The embedded store belongs to this process alone, so it migrates itself on first use (the
 * runner is idempotent): `npm run demo` needs no separate step and no server.
 */
export const embeddedAdapters = (settings: EmbeddedSettings, readTimeoutSeconds = 0): ClickHouseAdapters =>
  over(embeddedSession(settings, { onOpen: async (session) => void (await migrate(session)) }), readTimeoutSeconds)
