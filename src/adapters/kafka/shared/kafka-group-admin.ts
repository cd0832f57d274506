import { OffsetsNotApplied, type ConsumerGroupAdmin, type GroupMember, type PartitionOffset } from '../../../application/ports/consumer-group-admin.port.js'
import type { LagAdmin } from './admin-lag-reader.js'
import { brokerError } from './kafka-errors.js'
import { committedOffsetsVia, partitionOffsetsVia, withAdmin } from './kafka-admin-offsets.js'

/** The admin surface kafkajs and @confluentinc/kafka-javascript's KafkaJS API share, for moving a group. */
export interface GroupAdminClient extends LagAdmin {
  fetchTopicOffsetsByTimestamp(topic: string, timestamp?: number): Promise<readonly { partition: number; offset: string }[]>
  describeGroups(groupIds: string[]): Promise<{
    readonly groups: readonly { readonly groupId: string; readonly members: readonly { memberId: string; clientId: string; clientHost: string }[] }[]
  }>
}

/** How a client commits offsets for a group it is not a member of (the clients differ here). */
export type GroupCommit = (groupId: string, topic: string, offsets: readonly PartitionOffset[]) => Promise<void>

/**
 * The ConsumerGroupAdmin port over either Kafka client: one short admin connection per call
 * (an operator's tool makes a few dozen), failures as BrokerError.
 */
export const kafkaGroupAdmin = (createAdmin: () => GroupAdminClient, commit: GroupCommit): ConsumerGroupAdmin => ({
  members: (groupId) =>
    withAdmin(createAdmin(), `members of ${groupId}`, async (a): Promise<readonly GroupMember[]> => {
      const group = (await a.describeGroups([groupId])).groups.find((g) => g.groupId === groupId)
      return (group?.members ?? []).map((m) => ({ memberId: m.memberId, clientId: m.clientId, host: m.clientHost }))
    }),
  partitionOffsets: (topic) => partitionOffsetsVia(createAdmin(), topic),
  committedOffsets: (groupId, topic) => committedOffsetsVia(createAdmin(), groupId, topic),
  offsetsAt: (topic, timestamp) =>
    withAdmin(createAdmin(), `offsets of ${topic} at ${new Date(timestamp).toISOString()}`, async (a) =>
      new Map((await a.fetchTopicOffsetsByTimestamp(topic, timestamp)).map((p) => [p.partition, String(p.offset)])),
    ),
  setOffsets: async (groupId, topic, offsets) => {
    try {
      await commit(groupId, topic, offsets)
    } catch (e) {
      throw brokerError(`set offsets of ${groupId} on ${topic}`, e)
    }
    // the broker refuses a group with members; librdkafka's client does not say so
    const now = await committedOffsetsVia(createAdmin(), groupId, topic)
    const missed = offsets.filter((p) => now.get(p.partition) !== p.offset).map((p) => p.partition)
    if (missed.length > 0) throw new OffsetsNotApplied(groupId, topic, missed)
  },
})
