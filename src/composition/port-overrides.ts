import type { Broker } from '../application/ports/broker.port.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { ConsumerLagReader } from '../application/ports/consumer-lag.port.js'
import type { DimensionReader } from '../application/ports/dimension-reader.port.js'
import type { FactStore } from '../application/ports/fact-store.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import type { IngestMetrics } from '../application/ports/metrics.port.js'
import type { ReadModel } from '../application/ports/read-model.port.js'
import type { StageProgressReader } from '../application/ports/stage-progress.port.js'
import type { TopicCatalog } from '../application/ports/topic-catalog.port.js'
import type { Tracer } from '../application/ports/tracer.port.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import { inMemoryAdapters, type BrokerAdapters } from './broker.factory.js'
import type { StoreAdapters } from './store.factory.js'

/**
 * A host's own implementation of any port, in place of the one the configuration selects. A
 * broker given here comes without the configured client's admin API: give `topicCatalog` for the
 * start-up topic check and `lagReader` for the consumer-lag gauge, or they are left out.
 */
export interface PortOverrides {
  readonly logger?: Logger
  readonly metrics?: IngestMetrics
  readonly clock?: Clock
  readonly tracer?: Tracer
  readonly broker?: Broker
  readonly topicCatalog?: TopicCatalog
  readonly lagReader?: () => ConsumerLagReader
  readonly factStore?: FactStore
  /** Behind the process's dimension cache when it also implements VersionedDimensionReader (docs/ingest-rules.md). */
  readonly dimensionReader?: DimensionReader
  readonly readModel?: ReadModel
  readonly stageProgress?: StageProgressReader
}

const everyTopicThere: TopicCatalog = { missing: async () => [] }

export const withOverrides = {
  broker: (o: PortOverrides & { broker: Broker }): BrokerAdapters => {
    // The in-memory broker answers the topic check and the lag itself.
    const own = o.broker instanceof InMemoryBroker ? inMemoryAdapters(o.broker) : undefined
    const lagReader = o.lagReader ?? own?.lagReader
    return {
      broker: o.broker,
      catalog: o.topicCatalog ?? own?.catalog ?? everyTopicThere,
      ...(lagReader ? { lagReader } : {}),
      check: async () => undefined,
      close: async () => undefined,
    }
  },
  store: ({ dataVersions, dayRecords, ...s }: StoreAdapters, o: PortOverrides): StoreAdapters => ({
    ...s,
    factStore: o.factStore ?? s.factStore,
    dimensionReader: o.dimensionReader ?? s.dimensionReader,
    readModel: o.readModel ?? s.readModel,
    stageProgress: o.stageProgress ?? s.stageProgress,
    // the store's versions say nothing about a host's own read model
    ...(dataVersions && !o.readModel ? { dataVersions } : {}),
    // records are checked against the counts the store's own fact store raises
    ...(dayRecords && !o.readModel && !o.factStore ? { dayRecords } : {}),
  }),
}
