import type { Broker } from '../application/ports/broker.port.js'
import type { ConsumerLagReader } from '../application/ports/consumer-lag.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { topicsToProvision } from '../application/consumers/consumer-topics.js'
import type { TopicCatalog } from '../application/ports/topic-catalog.port.js'
import { AdminLagReader } from '../adapters/kafka/shared/admin-lag-reader.js'
import { ConfluentBroker } from '../adapters/kafka/librdkafka/confluent-broker.js'
import { confluentClient } from '../adapters/kafka/librdkafka/confluent-client.js'
import { ConfluentTopicCatalog } from '../adapters/kafka/librdkafka/confluent-topic-catalog.js'
import { KafkaJsBroker } from '../adapters/kafka/kafkajs/kafkajs-broker.js'
import { KafkaJsTopicCatalog } from '../adapters/kafka/kafkajs/kafkajs-topic-catalog.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import { InMemoryLagReader } from '../adapters/memory/in-memory-lag-reader.js'
import type { IngestConfig } from './config.js'
import { consumersOf } from './consumers.js'

/** Everything the composition needs of the configured Kafka client, typed: no probing at run time. */
export interface BrokerAdapters {
  readonly broker: Broker
  /** The start-up topic check through the client's admin API. */
  readonly catalog: TopicCatalog
  /** Consumer lag for the metrics, through the client's admin API. */
  readonly lagReader?: () => ConsumerLagReader
  /** Bounded start-up connection check: a ConnectionError says what is wrong (TLS, login…). */
  readonly check: () => Promise<void>
  /** Disconnects the shared producer (consumers disconnect in their own `stop`). */
  readonly close: () => Promise<void>
}

/** DEV_STATS_BROKER picks the adapters; Kafka clients connect lazily, in `run` / `publish`. */
export const brokerAdaptersFor = (config: IngestConfig, logger: Logger): BrokerAdapters => {
  switch (config.broker) {
    case 'kafkajs': {
      const broker = new KafkaJsBroker({ ...config.kafka, logger })
      return kafkaAdapters(broker, new KafkaJsTopicCatalog(config.kafka))
    }
    case 'confluent': {
      const broker = new ConfluentBroker({ ...config.kafka, logger })
      return kafkaAdapters(broker, new ConfluentTopicCatalog(config.kafka))
    }
    case 'memory':
      return inMemoryAdapters(provisioned(new InMemoryBroker(), config))
  }
}

const kafkaAdapters = (broker: KafkaJsBroker | ConfluentBroker, catalog: TopicCatalog): BrokerAdapters => ({
  broker,
  catalog,
  lagReader: () => new AdminLagReader(() => broker.admin()),
  check: () => broker.checkConnection(),
  close: () => broker.close(),
})

/** The in-memory broker answers the topic check and the lag itself. */
export const inMemoryAdapters = (broker: InMemoryBroker): BrokerAdapters => ({
  broker,
  catalog: broker,
  lagReader: () => new InMemoryLagReader(broker.log),
  check: async () => undefined,
  close: async () => undefined,
})

/** The in-memory broker comes with every enabled consumer's topics (those it lacks), as `npm run topics` does for Kafka. */
export const provisioned = (broker: InMemoryBroker, config: IngestConfig): InMemoryBroker => {
  for (const t of topicsToProvision(consumersOf(config))) if (!broker.log.hasTopic(t.name)) broker.createTopic(t.name, t.partitions)
  return broker
}

/** Loads the chosen broker's optional client now: ConfluentClientMissing (with how to install it) if absent. */
export const requireBrokerClient = (config: IngestConfig): void => {
  if (config.broker === 'confluent') confluentClient()
}
