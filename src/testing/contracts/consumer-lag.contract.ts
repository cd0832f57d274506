import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { Broker, BrokerConsumer, OutboundRecord } from '../../application/ports/broker.port.js'
import type { ConsumerLagReader, PartitionLag } from '../../application/ports/consumer-lag.port.js'
import { eventually } from './broker.contract.js'

/** What the contract needs: a broker to produce and commit through, and its lag reader. */
export interface LagReaderUnderTest {
  readonly broker: Broker
  readonly reader: ConsumerLagReader
  createTopic(name: string, partitions: number): Promise<void>
  dispose?(): Promise<void>
}

const unique = (what: string) => `lag-${what}-${randomUUID().slice(0, 8)}`
const record = (topic: string, i: number): OutboundRecord => ({ topic, key: new TextEncoder().encode(`k${i}`), value: null, headers: {} })

/**
 * Reads until `done` holds or 10 s passed, then returns the last read: librdkafka may resolve a
 * commit before the group coordinator serves it to another client's admin request.
 */
const settled = async (read: () => Promise<readonly PartitionLag[]>, done: (l: readonly PartitionLag[]) => boolean) => {
  const deadline = Date.now() + 10_000
  let last = await read()
  while (!done(last) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100))
    last = await read()
  }
  return last
}

/** One contract for every ConsumerLagReader: in-memory, kafkajs admin, librdkafka admin. */
export const consumerLagContract = (name: string, make: () => Promise<LagReaderUnderTest> | LagReaderUnderTest) => {
  describe(`ConsumerLagReader contract: ${name}`, () => {
    let sut: LagReaderUnderTest
    const consumers: BrokerConsumer[] = []

    afterEach(async () => {
      for (const c of consumers.splice(0)) await c.stop().catch(() => undefined)
      await sut?.reader.close()
      await sut?.dispose?.()
    })

    it('is end minus committed per partition; a group that never committed lags by the whole log', async () => {
      sut = await make()
      const topic = unique('t')
      const retry = unique('retry')
      await sut.createTopic(topic, 1)
      await sut.createTopic(retry, 1)
      await sut.broker.producer().publish(Array.from({ length: 5 }, (_, i) => record(topic, i)))

      const fresh = unique('never-committed')
      expect(await sut.reader.lagOf(fresh, [topic])).toEqual([{ topic, partition: 0, end: 5, committed: 0, lag: 5 }])

      const group = unique('g')
      const consumer = sut.broker.consumer(group)
      consumers.push(consumer)
      let received = 0
      await consumer.run([topic, retry], {
        onBatch: async (records) => void (received += records.length),
        onRevoked: async () => undefined,
      })
      await eventually(() => received >= 5, 30_000, '5 records')
      await consumer.commit([{ topic, partition: 0, offset: '2' }])
      expect(await settled(() => sut.reader.lagOf(group, [topic, retry]), (l) => l[0]?.committed === 2)).toEqual([
        { topic, partition: 0, end: 5, committed: 2, lag: 3 },
        { topic: retry, partition: 0, end: 0, committed: 0, lag: 0 },
      ])
      await consumer.commit([{ topic, partition: 0, offset: '5' }])
      expect(await settled(() => sut.reader.lagOf(group, [topic]), (l) => l[0]?.committed === 5)).toEqual([{ topic, partition: 0, end: 5, committed: 5, lag: 0 }])
    })
  })
}
