import { randomUUID } from 'node:crypto'
import { afterEach, describe, expect, it } from 'vitest'
import type { BrokerConsumer, OutboundRecord } from '../../application/ports/broker.port.js'
import { eventually, type BrokerUnderTest } from './broker.contract.js'

const unique = (what: string) => `contract-${what}-${randomUUID().slice(0, 8)}`
const records = (topic: string, n: number, tag: string): OutboundRecord[] =>
  Array.from({ length: n }, (_, i) => ({ topic, key: new TextEncoder().encode(`${tag}-${i}`), value: new TextEncoder().encode(tag), headers: {} }))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const sum = (m: ReadonlyMap<number, string>) => [...m.values()].reduce((n, o) => n + Number(o), 0)

/** One contract for every ConsumerGroupAdmin (a Broker's `groupAdmin()`): in-memory, kafkajs, librdkafka. */
export const groupAdminContract = (name: string, make: () => Promise<BrokerUnderTest> | BrokerUnderTest) => {
  describe(`ConsumerGroupAdmin contract: ${name}`, () => {
    let sut: BrokerUnderTest
    const running: BrokerConsumer[] = []

    afterEach(async () => {
      for (const c of running.splice(0)) await c.stop().catch(() => undefined)
      await sut?.dispose?.()
    })

    const topicWith = async (before: number, after: number) => {
      const topic = unique('replay')
      await sut.createTopic(topic, 3)
      await sut.broker.producer().publish(records(topic, before, 'before'))
      await sleep(50)
      const between = Date.now()
      await sleep(50)
      await sut.broker.producer().publish(records(topic, after, 'after'))
      return { topic, between }
    }

    it('offsetsAt: the first offset at or after a time on every partition, the end when nothing is that recent', async () => {
      sut = await make()
      const { topic, between } = await topicWith(10, 7)
      const admin = sut.broker.groupAdmin()
      const ends = new Map((await admin.partitionOffsets(topic)).map((p) => [p.partition, p.high]))
      const at = await admin.offsetsAt(topic, between)
      expect([...at.keys()].sort()).toEqual([0, 1, 2])
      expect(sum(ends) - sum(at)).toBe(7)
      expect(await admin.offsetsAt(topic, Date.now() + 3_600_000)).toEqual(ends)
      expect(sum(await admin.offsetsAt(topic, between - 3_600_000))).toBe(0)
    })

    it('setOffsets on a group without members: read back by committedOffsets', async () => {
      sut = await make()
      const { topic } = await topicWith(10, 0)
      const admin = sut.broker.groupAdmin()
      const group = unique('group')
      expect(await admin.members(group)).toEqual([])
      expect(await admin.committedOffsets(group, topic)).toEqual(new Map())
      await admin.setOffsets(group, topic, [{ partition: 0, offset: '0' }, { partition: 2, offset: '1' }])
      expect(await admin.committedOffsets(group, topic)).toEqual(new Map([[0, '0'], [2, '1']]))
    })

    it('members: a running consumer is listed with its client id and host; its group offsets do not move', async () => {
      sut = await make()
      const { topic } = await topicWith(10, 0)
      const admin = sut.broker.groupAdmin()
      const group = unique('group')
      const consumer = sut.broker.consumer(group)
      running.push(consumer)
      let seen = 0
      await consumer.run([topic], {
        onBatch: async (rs) => {
          seen += rs.length
          const last = rs.at(-1)!
          await consumer.commit([{ topic: last.topic, partition: last.partition, offset: String(Number(last.offset) + 1) }])
        },
        onRevoked: async () => undefined,
      })
      // the kafkajs join has taken over 30 s here under a loaded suite (cause not found); the case is about membership
      await eventually(() => seen === 10, 90_000, '10 records')
      const members = await admin.members(group)
      expect(members).toHaveLength(1)
      expect(members[0]?.clientId).not.toBe('')
      expect(members[0]?.host).not.toBe('')
      const before = await admin.committedOffsets(group, topic)
      expect(sum(before)).toBe(10)
      // the broker refuses a group with members; the adapter says so even where its client does not
      await expect(admin.setOffsets(group, topic, [{ partition: 0, offset: '0' }, { partition: 1, offset: '0' }, { partition: 2, offset: '0' }])).rejects.toThrow()
      expect(await admin.committedOffsets(group, topic)).toEqual(before)
    })
  })
}
