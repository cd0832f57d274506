import type { Broker } from '../application/ports/broker.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { ConfluentBroker } from '../adapters/kafka/confluent-broker.js'
import { KafkaJsBroker } from '../adapters/kafka/kafkajs-broker.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import type { IngestConfig } from './config.js'

/** DEV_STATS_BROKER picks the adapter; Kafka clients connect lazily, in `run` / `publish`. */
export const brokerFor = (config: IngestConfig, logger: Logger): Broker => {
  switch (config.broker) {
    case 'kafkajs':
      return new KafkaJsBroker({ ...config.kafka, logger })
    case 'confluent':
      return new ConfluentBroker({ ...config.kafka, logger })
    case 'memory':
      return new InMemoryBroker()
  }
}
