/** How far one consumer group is behind on one partition, from the broker's admin API. */
export interface PartitionLag {
  readonly topic: string
  readonly partition: number
  /** Next offset the broker will write (the high watermark). */
  readonly end: number
  /** The group's committed offset, or the partition's earliest offset when the group never committed. */
  readonly committed: number
  /** Records not yet committed: end − committed, never negative. */
  readonly lag: number
}

/** Reads a group's lag on its topics; throws (retriable) when the broker cannot answer. */
export interface ConsumerLagReader {
  lagOf(groupId: string, topics: readonly string[]): Promise<readonly PartitionLag[]>
  close(): Promise<void>
}
