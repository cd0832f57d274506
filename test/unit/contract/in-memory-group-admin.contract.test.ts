import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { groupAdminContract } from '../../../src/testing/contracts/group-admin.contract.js'

groupAdminContract('in-memory', () => {
  const broker = new InMemoryBroker(50)
  return { broker, createTopic: async (name, partitions) => broker.createTopic(name, partitions) }
})
