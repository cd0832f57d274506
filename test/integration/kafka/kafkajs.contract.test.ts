import { brokerContract } from '../../../src/testing/contracts/broker.contract.js'
import { createTopic, kafkaBroker } from '../../support/kafka.js'

brokerContract('kafkajs on a real broker', () => {
  const broker = kafkaBroker('kafkajs')
  return { broker, createTopic, dispose: () => broker.close() }
})
