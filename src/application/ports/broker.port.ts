import type { ConsumerGroupAdmin, PartitionOffsets } from './consumer-group-admin.port.js'

export type { PartitionOffsets }

/** One record as the broker delivered it. Offsets are int64 decimal strings. */
export interface BrokerRecord {
  readonly topic: string
  readonly partition: number
  readonly offset: string
  readonly key: Uint8Array | null
  readonly value: Uint8Array | null
  readonly headers: Readonly<Record<string, string>>
  /** Epoch ms the broker stamped on the record (its arrival in Kafka), when the client reports one. */
  readonly timestamp?: number
}

export interface TopicPartition {
  readonly topic: string
  readonly partition: number
}

/** `offset` is the next offset the group should read: last processed + 1. */
export interface OffsetCommit extends TopicPartition {
  readonly offset: string
}

export interface OutboundRecord {
  readonly topic: string
  readonly key: Uint8Array | null
  readonly value: Uint8Array | null
  readonly headers: Readonly<Record<string, string>>
}

export interface ConsumerCallbacks {
  /**
   * Records of one partition, in offset order. The returned promise may take long (a full buffer
   * waits for its insert); the adapter keeps its group membership alive meanwhile and delivers
   * no further batch of the same partition before it settles.
   */
  readonly onBatch: (records: readonly BrokerRecord[]) => Promise<void>
  /** Partitions taken away by a rebalance: their uncommitted records will be redelivered elsewhere. */
  readonly onRevoked: (partitions: readonly TopicPartition[]) => Promise<void>
}

/** A member of one consumer group. Auto-commit is off: only `commit` moves the group's offsets. */
export interface BrokerConsumer {
  run(topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void>
  commit(offsets: readonly OffsetCommit[]): Promise<void>
  /** Stop fetching (all assigned partitions) until `resume`, e.g. while the store is down. */
  pause(): void
  resume(): void
  /**
   * Stop fetching one topic's partitions (e.g. the retry topic while parking is full) until
   * `resumeTopic`; independent of pause()/resume(): a partition fetches when neither holds it.
   */
  pauseTopic(topic: string): void
  resumeTopic(topic: string): void
  /** Leave the group. Uncommitted records stay for the next member. */
  stop(): Promise<void>
}

export interface BrokerProducer {
  /** Resolves only once the broker acknowledged every record (acks=all). */
  publish(records: readonly OutboundRecord[]): Promise<void>
}

export interface Broker {
  consumer(groupId: string): BrokerConsumer
  producer(): BrokerProducer
  /** Every partition of `topic` with its low and high offsets (e.g. to read a topic to its end). */
  partitionOffsets(topic: string): Promise<readonly PartitionOffsets[]>
  /** The offsets `groupId` committed on `topic`, by partition; a partition without a commit is absent. */
  committedOffsets(groupId: string, topic: string): Promise<ReadonlyMap<number, string>>
  /** The admin operations that move a group's offsets (`npm run replay`), with this broker's connection settings. */
  groupAdmin(): ConsumerGroupAdmin
}
