import { OffsetsNotApplied, type ConsumerGroupAdmin, type GroupMember } from '../../application/ports/consumer-group-admin.port.js'
import type { InMemoryLog } from './in-memory-log.js'

/** The group admin of the in-memory broker; like Kafka, it refuses to move a group that has members. */
export const inMemoryGroupAdmin = (log: InMemoryLog): ConsumerGroupAdmin => {
  const members = (groupId: string): GroupMember[] =>
    Array.from({ length: log.memberCount(groupId) }, (_, i) => ({ memberId: `${groupId}-${i}`, clientId: 'in-memory', host: 'in-process' }))
  const committedOffsets = async (groupId: string, topic: string): Promise<ReadonlyMap<number, string>> =>
    new Map(
      log.endOffsets(topic).flatMap((_, partition) =>
        log.hasCommitted(groupId, { topic, partition }) ? [[partition, String(log.committedOffset(groupId, { topic, partition }))] as const] : [],
      ),
    )
  return {
    members: async (groupId) => members(groupId),
    partitionOffsets: async (topic) => log.endOffsets(topic).map((size, partition) => ({ partition, low: '0', high: String(size) })),
    committedOffsets,
    offsetsAt: async (topic, timestamp) =>
      new Map(log.endOffsets(topic).map((size, partition) => {
        const first = log.read({ topic, partition }, 0, size).find((r) => r.timestamp >= timestamp)
        return [partition, String(first?.offset ?? size)]
      })),
    setOffsets: async (groupId, topic, offsets) => {
      if (members(groupId).length > 0) throw new OffsetsNotApplied(groupId, topic, offsets.map((o) => o.partition))
      log.commit(groupId, offsets.map((o) => ({ topic, ...o })))
    },
  }
}
