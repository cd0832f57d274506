import type { Broker } from '../application/ports/broker.port.js'
import { PinoLogger } from '../adapters/observability/pino-logger.js'
import { brokerAdaptersFor, requireBrokerClient } from './broker.factory.js'
import type { IngestConfig } from './config.js'
import { allConsumersOf } from './consumers.js'

/** What `npm run dlq` needs: the configured broker adapter and every consumer's source topic. */
export interface DlqTool {
  readonly broker: Broker
  /** Source topics of every registered consumer, flags ignored: a disabled consumer may still have dead letters. */
  readonly sourceTopics: readonly string[]
  /** Bounded connection check of the configured client: a ConnectionError says what is wrong. */
  check(): Promise<void>
  close(): Promise<void>
}

/** Throws ConfluentClientMissing (how to install it) when DEV_STATS_BROKER=confluent and the client is absent. */
export const dlqToolFor = (config: IngestConfig): DlqTool => {
  requireBrokerClient(config)
  const { broker, check, close } = brokerAdaptersFor(config, PinoLogger.withLevel(config.logLevel))
  const sourceTopics = [...new Set(allConsumersOf(config).map((c) => c.topics.source))]
  return { broker, sourceTopics, check, close }
}
