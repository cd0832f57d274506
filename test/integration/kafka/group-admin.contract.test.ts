import { groupAdminContract } from '../../../src/testing/contracts/group-admin.contract.js'
import { createTopic, KAFKA_ADAPTERS, kafkaBroker } from '../../support/kafka.js'

for (const adapter of KAFKA_ADAPTERS) {
  groupAdminContract(`${adapter} on a real broker`, () => {
    const broker = kafkaBroker(adapter)
    return { broker, createTopic, dispose: () => broker.close() }
  })
}
