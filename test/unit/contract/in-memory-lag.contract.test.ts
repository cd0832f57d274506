import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { InMemoryLagReader } from '../../../src/adapters/memory/in-memory-lag-reader.js'
import { consumerLagContract } from '../../../src/testing/contracts/consumer-lag.contract.js'

consumerLagContract('in-memory', () => {
  const broker = new InMemoryBroker(50)
  return { broker, reader: new InMemoryLagReader(broker.log), createTopic: async (name, partitions) => broker.createTopic(name, partitions) }
})
