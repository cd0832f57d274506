/** A partition's earliest offset still held (`low`) and the offset the next record gets (`high`). */
export interface PartitionOffsets {
  readonly partition: number
  readonly low: string
  readonly high: string
}

/** The next offset a group reads on one partition of a topic. */
export interface PartitionOffset {
  readonly partition: number
  readonly offset: string
}

/** A member of a consumer group as its coordinator describes it. */
export interface GroupMember {
  readonly memberId: string
  readonly clientId: string
  /** As the broker saw the connection, e.g. `/10.0.3.7`. */
  readonly host: string
}

/**
 * Moving a consumer group through the broker's admin API (replay from a point in time): who is in
 * the group, where a time falls in a topic, and committing offsets for a group from outside it.
 */
export interface ConsumerGroupAdmin {
  /** Active members of the group; empty when nobody consumes in it. */
  members(groupId: string): Promise<readonly GroupMember[]>
  /** Every partition of `topic` with its low and high offsets. */
  partitionOffsets(topic: string): Promise<readonly PartitionOffsets[]>
  /** The offsets `groupId` committed on `topic`, by partition; a partition without a commit is absent. */
  committedOffsets(groupId: string, topic: string): Promise<ReadonlyMap<number, string>>
  /**
   * By partition, the first offset whose record timestamp is at or after `timestamp` (epoch ms),
   * or the partition's end when no record is that recent (Kafka's ListOffsets by timestamp).
   */
  offsetsAt(topic: string, timestamp: number): Promise<ReadonlyMap<number, string>>
  /**
   * Commits `offsets` for the group from outside it. Kafka accepts this only while the group has
   * no members, and a client may not report the refusal (librdkafka's does not): an adapter reads
   * the offsets back and throws OffsetsNotApplied when they did not take.
   */
  setOffsets(groupId: string, topic: string, offsets: readonly PartitionOffset[]): Promise<void>
}

/** The broker answered without error, but the group's committed offsets are not the ones set. */
export class OffsetsNotApplied extends Error {
  constructor(
    readonly groupId: string,
    readonly topic: string,
    readonly partitions: readonly number[],
  ) {
    super(`the broker did not take the new offsets of group ${groupId} on ${topic} partition(s) ${partitions.join(', ')}`)
    this.name = 'OffsetsNotApplied'
  }
}
