import type { Broker, BrokerConsumer, BrokerProducer, OutboundRecord, PartitionOffsets } from '../../application/ports/broker.port.js'
import type { ConsumerGroupAdmin } from '../../application/ports/consumer-group-admin.port.js'
import { PortError } from '../../application/ports/retriable.js'
import type { TopicCatalog } from '../../application/ports/topic-catalog.port.js'
import { InMemoryConsumer } from './in-memory-consumer.js'
import { inMemoryGroupAdmin } from './in-memory-group-admin.js'
import { InMemoryLog, type StoredRecord } from './in-memory-log.js'

/**
 * A broker in memory: partitioned topics, consumer groups with committed offsets, rebalancing
 * between members and redelivery from the last commit after a member crashes.
 */
export class InMemoryBroker implements Broker, TopicCatalog {
  readonly log = new InMemoryLog()
  /** Failure injection: the next N publishes are refused, as a broker without quorum would. */
  failNextPublishes = 0

  constructor(private readonly pollSize = 500) {}

  createTopic(name: string, partitions: number): void {
    this.log.createTopic(name, partitions)
  }

  deleteTopic(name: string): void {
    this.log.deleteTopic(name)
  }

  async missing(topics: readonly string[]): Promise<readonly string[]> {
    return topics.filter((t) => !this.log.hasTopic(t))
  }

  consumer(groupId: string): BrokerConsumer & InMemoryConsumer {
    return new InMemoryConsumer(this.log, groupId, this.pollSize)
  }

  producer(): BrokerProducer {
    return {
      publish: async (records: readonly OutboundRecord[]) => {
        if (this.failNextPublishes > 0) {
          this.failNextPublishes--
          throw new PortError('in-memory broker refused the publish', true)
        }
        this.log.appendAll(records)
      },
    }
  }

  partitionOffsets(topic: string): Promise<readonly PartitionOffsets[]> {
    return this.groupAdmin().partitionOffsets(topic)
  }

  committedOffsets(groupId: string, topic: string): Promise<ReadonlyMap<number, string>> {
    return this.groupAdmin().committedOffsets(groupId, topic)
  }

  groupAdmin(): ConsumerGroupAdmin {
    return inMemoryGroupAdmin(this.log)
  }

  /** Every record of a topic, over all partitions (for asserting dead letters and parked copies). */
  records(topic: string): readonly StoredRecord[] {
    return this.log.all(topic)
  }
}
