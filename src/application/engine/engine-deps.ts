import type { EventHandler } from '../handlers/event-handler.js'
import type { BrokerConsumer, BrokerProducer } from '../ports/broker.port.js'
import type { Clock } from '../ports/clock.port.js'
import type { DimensionReader } from '../ports/dimension-reader.port.js'
import type { FactStore } from '../ports/fact-store.port.js'
import type { Logger } from '../ports/logger.port.js'
import type { IngestMetrics } from '../ports/metrics.port.js'
import type { Tracer } from '../ports/tracer.port.js'
import type { DimensionProgress } from './dimension-progress.js'
import type { EngineConfig, EngineTopics } from './engine-config.js'

/** Everything one consumer engine works with: its handler, its topics and the ports. */
import type { SourceBacklog } from './backlog.js'
import type { MemoryBudget } from './memory-budget.js'
import type { StoreRecovery } from './store-recovery.js'

export interface EngineDeps {
  readonly handler: EventHandler
  readonly topics: EngineTopics
  readonly consumer: BrokerConsumer
  readonly producer: BrokerProducer
  readonly store: FactStore
  readonly dimensions: DimensionReader
  /** How far the dimension's own consumers have stored; without it a gap is declared after the attempts alone. */
  readonly dimensionProgress?: DimensionProgress
  /** How far behind its source topic this consumer is (the lag reads); without it batches never grow. */
  readonly backlog?: SourceBacklog
  /** The store's parts pressure; while high, batches grow as when behind. */
  readonly pressure?: { readonly high: boolean }
  /** The process's memory budget for the records held, shared by every consumer; absent: unlimited. */
  readonly budget?: MemoryBudget
  /** Shared by every consumer: the store answering again ends their backoffs; absent: each sleeps its backoff out. */
  readonly recovery?: StoreRecovery
  readonly clock: Clock
  readonly logger: Logger
  readonly metrics: IngestMetrics
  readonly tracer: Tracer
  readonly config: EngineConfig
  /** While stopping, an offset commit the broker does not answer is given up after this long (default 10 s, STOP_COMMIT_WAIT_MS). */
  readonly stopCommitWaitMs?: number
}
