import { AdminLagReader } from '../../../src/adapters/kafka/shared/admin-lag-reader.js'
import { consumerLagContract } from '../../../src/testing/contracts/consumer-lag.contract.js'
import { createTopic, KAFKA_ADAPTERS, kafkaBroker } from '../../support/kafka.js'

for (const adapter of KAFKA_ADAPTERS) {
  consumerLagContract(`${adapter} admin on a real broker`, () => {
    const broker = kafkaBroker(adapter)
    return { broker, reader: new AdminLagReader(() => broker.admin()), createTopic, dispose: () => broker.close() }
  })
}
