import { describe, expect, it } from 'vitest'
import { kafkaGroupAdmin, type GroupAdminClient, type GroupCommit } from '../../../../src/adapters/kafka/shared/kafka-group-admin.js'
import { OffsetsNotApplied } from '../../../../src/application/ports/consumer-group-admin.port.js'

// librdkafka's client returns from a commit for a group with members as if it had worked: the
// adapter reads the offsets back, so no caller has to.
const admin = (committed: Map<number, string>): GroupAdminClient => ({
  connect: async () => undefined,
  disconnect: async () => undefined,
  fetchTopicOffsets: async () => [],
  fetchOffsets: async ({ topics }) => topics.map((topic) => ({ topic, partitions: [...committed].map(([partition, offset]) => ({ partition, offset })) })),
  fetchTopicOffsetsByTimestamp: async () => [],
  describeGroups: async () => ({ groups: [] }),
})

describe('kafkaGroupAdmin.setOffsets', () => {
  it('a commit the broker took is read back and returns', async () => {
    const committed = new Map([[0, '5'], [1, '5']])
    const commit: GroupCommit = async (_g, _t, offsets) => offsets.forEach((o) => committed.set(o.partition, o.offset))
    await kafkaGroupAdmin(() => admin(committed), commit).setOffsets('g', 't', [{ partition: 0, offset: '0' }, { partition: 1, offset: '2' }])
    expect(committed).toEqual(new Map([[0, '0'], [1, '2']]))
  })

  it('a commit the client says nothing about but the broker did not take is OffsetsNotApplied, naming the partitions', async () => {
    const committed = new Map([[0, '5'], [1, '5'], [2, '0']])
    const silent: GroupCommit = async () => undefined
    const attempt = kafkaGroupAdmin(() => admin(committed), silent).setOffsets('g', 't', [{ partition: 0, offset: '0' }, { partition: 1, offset: '1' }, { partition: 2, offset: '0' }])
    await expect(attempt).rejects.toThrow(OffsetsNotApplied)
    await expect(kafkaGroupAdmin(() => admin(committed), silent).setOffsets('g', 't', [{ partition: 0, offset: '0' }, { partition: 1, offset: '1' }])).rejects.toThrow(/partition\(s\) 0, 1$/)
  })
})
