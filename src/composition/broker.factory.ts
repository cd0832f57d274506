import type { Broker } from '../application/ports/broker.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { topicsToProvision } from '../application/consumers/consumer-topics.js'
import type { TopicCatalog } from '../application/ports/topic-catalog.port.js'
import { ConfluentBroker } from '../adapters/kafka/confluent-broker.js'
import { confluentClient } from '../adapters/kafka/confluent-client.js'
import { ConfluentTopicCatalog } from '../adapters/kafka/confluent-topic-catalog.js'
import { KafkaJsBroker } from '../adapters/kafka/kafkajs-broker.js'
import { KafkaJsTopicCatalog } from '../adapters/kafka/kafkajs-topic-catalog.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import type { IngestConfig } from './config.js'
import { consumersOf } from './consumers.js'

/** DEV_STATS_BROKER picks the adapter; Kafka clients connect lazily, in `run` / `publish`. */
export const brokerFor = (config: IngestConfig, logger: Logger): Broker => {
  switch (config.broker) {
    case 'kafkajs':
      return new KafkaJsBroker({ ...config.kafka, logger })
    case 'confluent':
      return new ConfluentBroker({ ...config.kafka, logger })
    case 'memory':
      return provisioned(new InMemoryBroker(), config)
  }
}

/** The in-memory broker comes with every enabled consumer's topics, as `npm run topics` does for Kafka. */
const provisioned = (broker: InMemoryBroker, config: IngestConfig): InMemoryBroker => {
  for (const t of topicsToProvision(consumersOf(config))) broker.createTopic(t.name, t.partitions)
  return broker
}

/** The start-up topic check through the chosen client's admin API; the in-memory broker answers itself. */
export const topicCatalogFor = (config: IngestConfig, broker: Broker): TopicCatalog => {
  switch (config.broker) {
    case 'kafkajs':
      return new KafkaJsTopicCatalog(config.kafka)
    case 'confluent':
      return new ConfluentTopicCatalog(config.kafka)
    case 'memory':
      if (broker instanceof InMemoryBroker) return broker
      throw new Error('DEV_STATS_BROKER=memory with a Broker that is not the InMemoryBroker: rebind TopicCatalog too')
  }
}

/** Loads the chosen broker's optional client now: ConfluentClientMissing (with how to install it) if absent. */
export const requireBrokerClient = (config: IngestConfig): void => {
  if (config.broker === 'confluent') confluentClient()
}
