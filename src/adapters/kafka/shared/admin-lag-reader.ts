import type { ConsumerLagReader, PartitionLag } from '../../../application/ports/consumer-lag.port.js'
import { brokerError } from './kafka-errors.js'
import { partitionLags, type CommittedOffset, type Watermarks } from './partition-lag.js'

/** The admin surface kafkajs and @confluentinc/kafka-javascript's KafkaJS API share (what we use). */
export interface LagAdmin {
  connect(): Promise<void>
  disconnect(): Promise<void>
  fetchTopicOffsets(topic: string): Promise<readonly Watermarks[]>
  fetchOffsets(o: { groupId: string; topics: string[] }): Promise<readonly { topic: string; partitions: readonly CommittedOffset[] }[]>
}

/**
 * Consumer lag through a Kafka admin client (one connection, opened on first use and reopened
 * after a failure): the topics' high watermarks against the group's committed offsets.
 */
export class AdminLagReader implements ConsumerLagReader {
  private admin: Promise<LagAdmin> | undefined

  constructor(private readonly createAdmin: () => LagAdmin) {}

  async lagOf(groupId: string, topics: readonly string[]): Promise<readonly PartitionLag[]> {
    const admin = await this.connected()
    try {
      const committed = await admin.fetchOffsets({ groupId, topics: [...topics] })
      const lags: PartitionLag[] = []
      for (const topic of topics) {
        const ends = await admin.fetchTopicOffsets(topic)
        lags.push(...partitionLags(topic, ends, committed.find((c) => c.topic === topic)?.partitions ?? []))
      }
      return lags
    } catch (e) {
      await this.close()
      throw brokerError(`consumer lag of ${groupId}`, e)
    }
  }

  async close(): Promise<void> {
    const admin = this.admin
    this.admin = undefined
    if (admin) await (await admin.catch(() => undefined))?.disconnect().catch(() => undefined)
  }

  private connected(): Promise<LagAdmin> {
    if (!this.admin) {
      const admin = this.createAdmin()
      this.admin = admin.connect().then(
        () => admin,
        (e: unknown) => {
          this.admin = undefined
          throw brokerError('admin connect', e)
        },
      )
    }
    return this.admin
  }
}
