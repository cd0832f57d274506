import kafkajs from 'kafkajs'
import { describe, expect, it } from 'vitest'
import { SHARED_ASSIGNMENT_PROTOCOL, librdkafkaRoundRobin } from '../../../../src/adapters/kafka/kafkajs/shared-assigner.js'

const { AssignerProtocol } = kafkajs

describe('the assignment protocol kafkajs shares with librdkafka', () => {
  const cluster = { findTopicPartitionMetadata: () => [0, 1, 2, 3, 4, 5].map((partitionId) => ({ partitionId })) }
  const assigner = librdkafkaRoundRobin({ cluster, groupId: 'g', logger: console } as never)

  it("is named as librdkafka's round robin and offers standard version-0 subscription metadata", () => {
    const { name, metadata } = assigner.protocol({ topics: ['t'] })
    expect(name).toBe('roundrobin')
    expect(SHARED_ASSIGNMENT_PROTOCOL).toBe('roundrobin')
    expect(AssignerProtocol.MemberMetadata.decode(metadata)).toEqual({ version: 0, topics: ['t'], userData: Buffer.alloc(0) })
  })

  it('spreads six partitions over three members, two each, in the standard assignment encoding', async () => {
    const members = ['c', 'a', 'b'].map((memberId) => ({ memberId, memberMetadata: Buffer.alloc(0) }))
    const out = await assigner.assign({ members, topics: ['t'] })
    const owned = Object.fromEntries(out.map((m) => [m.memberId, AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment['t']]))
    expect(owned).toEqual({ a: [0, 3], b: [1, 4], c: [2, 5] })
  })
})
