import type { ConsumerLagReader, PartitionLag } from '../../application/ports/consumer-lag.port.js'
import type { InMemoryLog } from './in-memory-log.js'

/** Consumer lag of the in-memory broker: each partition's end against the group's committed offset. */
export class InMemoryLagReader implements ConsumerLagReader {
  constructor(private readonly log: InMemoryLog) {}

  async lagOf(groupId: string, topics: readonly string[]): Promise<readonly PartitionLag[]> {
    return topics.flatMap((topic) =>
      this.log.endOffsets(topic).map((end, partition) => {
        const committed = this.log.committedOffset(groupId, { topic, partition })
        return { topic, partition, end, committed, lag: Math.max(0, end - committed) }
      }),
    )
  }

  async close(): Promise<void> {}
}
