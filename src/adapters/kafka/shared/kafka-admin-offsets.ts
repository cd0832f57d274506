import type { PartitionOffsets } from '../../../application/ports/broker.port.js'
import type { LagAdmin as OffsetsAdmin } from './admin-lag-reader.js'
import { brokerError } from './kafka-errors.js'

interface Connectable {
  connect(): Promise<void>
  disconnect(): Promise<void>
}

/** One short admin connection: connect, work, disconnect; failures become a BrokerError. */
export const withAdmin = async <A extends Connectable, T>(admin: A, what: string, f: (a: A) => Promise<T>): Promise<T> => {
  try {
    await admin.connect()
    return await f(admin)
  } catch (e) {
    throw brokerError(what, e)
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}

/** One short admin connection per call: these look-ups are rare (the dead-letter tool). */
export const partitionOffsetsVia = (admin: OffsetsAdmin, topic: string): Promise<readonly PartitionOffsets[]> =>
  withAdmin(admin, `offsets of ${topic}`, async (a) =>
    (await a.fetchTopicOffsets(topic))
      .map(({ partition, low, high }) => ({ partition, low: String(low), high: String(high) }))
      .sort((x, y) => x.partition - y.partition),
  )

/** Kafka answers "-1" for a partition the group never committed on: those are left out. */
export const committedOffsetsVia = (admin: OffsetsAdmin, groupId: string, topic: string): Promise<ReadonlyMap<number, string>> =>
  withAdmin(admin, `committed offsets of ${groupId} on ${topic}`, async (a) => {
    const [entry] = (await a.fetchOffsets({ groupId, topics: [topic] })).filter((t) => t.topic === topic)
    return new Map((entry?.partitions ?? []).filter((p) => Number(p.offset) >= 0).map((p) => [p.partition, String(p.offset)]))
  })
