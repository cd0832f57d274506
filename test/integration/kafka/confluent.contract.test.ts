import { brokerContract } from '../../../src/testing/contracts/broker.contract.js'
import { createTopic, kafkaBroker } from '../../support/kafka.js'

brokerContract('librdkafka (@confluentinc/kafka-javascript) on a real broker', () => {
  const broker = kafkaBroker('confluent')
  return { broker, createTopic, dispose: () => broker.close() }
})
