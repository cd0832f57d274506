import type { ResolvedConsumer } from '../application/consumers/consumer-topics.js'
import type { Broker } from '../application/ports/broker.port.js'
import type { ConsumerGroupAdmin } from '../application/ports/consumer-group-admin.port.js'
import { PinoLogger } from '../adapters/observability/pino-logger.js'
import { brokerAdaptersFor, requireBrokerClient } from './broker.factory.js'
import type { IngestConfig } from './config.js'
import { allConsumersOf } from './consumers.js'

/** What `npm run replay` needs: the configured broker's group admin and every consumer as this deployment names it. */
export interface ReplayTool {
  readonly broker: Broker
  readonly admin: ConsumerGroupAdmin
  /** Every registered consumer with the DEV_STATS_TOPIC_/GROUP_ overrides, flags ignored: a flag may be about to be switched on. */
  readonly consumers: readonly ResolvedConsumer[]
  /** Bounded connection check of the configured client: a ConnectionError says what is wrong. */
  check(): Promise<void>
  close(): Promise<void>
}

/** Throws ConfluentClientMissing (how to install it) when DEV_STATS_BROKER=confluent and the client is absent. */
export const replayToolFor = (config: IngestConfig): ReplayTool => {
  requireBrokerClient(config)
  const { broker, check, close } = brokerAdaptersFor(config, PinoLogger.withLevel(config.logLevel))
  return { broker, admin: broker.groupAdmin(), consumers: allConsumersOf(config), check, close }
}
