import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import type { InMemoryConsumer } from '../../../src/adapters/memory/in-memory-consumer.js'
import { brokerContract } from '../../../src/testing/contracts/broker.contract.js'

brokerContract('in-memory', () => {
  const broker = new InMemoryBroker(50)
  return {
    broker,
    createTopic: async (name, partitions) => broker.createTopic(name, partitions),
    crash: (consumer) => (consumer as InMemoryConsumer).crash(),
  }
}, { quietMs: 200 })
