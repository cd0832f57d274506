import { afterEach, describe, expect, it, vi } from 'vitest'

// Found by the soak (issue 20): librdkafka's admin fetchOffsets (ListConsumerGroupOffsets)
// dereferences a NULL consumer group when the broker answers NOT_COORDINATOR, as it does for a
// while after a restart: the service died with SIGSEGV in rd_kafka_handle_OffsetFetch whenever
// the lag monitor (every 15 s) asked at that moment (librdkafka 2.15.1; upstream librdkafka#5040,
// confluent-kafka-javascript#374). The confluent adapter reads offsets and lag with kafkajs.
const librdkafka = vi.hoisted(() => ({ loads: 0 }))
vi.mock('../../../../src/adapters/kafka/librdkafka/confluent-client.js', async (original) => ({
  ...(await original<typeof import('../../../../src/adapters/kafka/librdkafka/confluent-client.js')>()),
  confluentClient: () => {
    librdkafka.loads++
    throw new Error('librdkafka loaded')
  },
}))

const { ConfluentBroker } = await import('../../../../src/adapters/kafka/librdkafka/confluent-broker.js')
const { AdminLagReader } = await import('../../../../src/adapters/kafka/shared/admin-lag-reader.js')

describe('confluent adapter: offsets and lag without librdkafka\'s admin client', () => {
  afterEach(() => void (librdkafka.loads = 0))

  it('hands the lag reader a kafkajs admin client', () => {
    const broker = new ConfluentBroker({ brokers: ['127.0.0.1:1'], clientId: 't' })
    const admin = broker.admin()
    // kafkajs's admin carries its instrumentation event names; the librdkafka-based one does not.
    expect(admin).toHaveProperty('events.CONNECT', 'admin.connect')
    expect(typeof admin.fetchOffsets).toBe('function')
    new AdminLagReader(() => broker.admin())
    expect(librdkafka.loads).toBe(0)
  })

  it('builds the group admin (members, offsets) on kafkajs too, one client for all', () => {
    const broker = new ConfluentBroker({ brokers: ['127.0.0.1:1'], clientId: 't' })
    broker.groupAdmin()
    expect(broker.admin()).not.toBe(broker.admin()) // a new admin connection per use, from one kafkajs client
    expect(librdkafka.loads).toBe(0)
  })

  it('still runs its consumers on librdkafka', async () => {
    const broker = new ConfluentBroker({ brokers: ['127.0.0.1:1'], clientId: 't' })
    await expect(broker.consumer('g').run(['t'], { onBatch: async () => undefined, onRevoked: async () => undefined })).rejects.toThrow(/librdkafka loaded/)
    expect(librdkafka.loads).toBe(1)
  })
})
