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

    /**
     * A topic with `before` records, then `after` records written after `between`. The ends are read
     * back, not counted: a producer that is not idempotent (kafkajs's) writes a batch again when the
     * broker refused part of it (a new topic's first produce under load: NOT_LEADER_FOR_PARTITION).
     */
    const topicWith = async (before: number, after: number) => {
      const topic = unique('replay')
      const admin = sut.broker.groupAdmin()
      const ends = async () => new Map((await admin.partitionOffsets(topic)).map((p) => [p.partition, p.high]))
      await sut.createTopic(topic, 3)
      await sut.broker.producer().publish(records(topic, before, 'before'))
      const endsBefore = await ends()
      await sleep(50)
      const between = Date.now()
      await sleep(50)
      await sut.broker.producer().publish(records(topic, after, 'after'))
      return { topic, between, endsBefore, endsAfter: await ends() }
    }

    it('offsetsAt: the first offset at or after a time on every partition, the end when nothing is that recent', async () => {
      sut = await make()
      const { topic, between, endsBefore, endsAfter } = await topicWith(10, 7)
      const admin = sut.broker.groupAdmin()
      expect(sum(endsAfter) - sum(endsBefore)).toBeGreaterThanOrEqual(7)
      expect(await admin.offsetsAt(topic, between)).toEqual(endsBefore)
      expect(await admin.offsetsAt(topic, Date.now() + 3_600_000)).toEqual(endsAfter)
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

    it('a consumer stopped while it connects or joins ends its run and leaves no member behind', async () => {
      sut = await make()
      const { topic } = await topicWith(3, 0)
      const admin = sut.broker.groupAdmin()
      const groups = [5, 30, 100, 300].map((delayMs) => ({ delayMs, group: unique('group') }))
      await Promise.all(groups.map(async ({ delayMs, group }) => {
        const consumer = sut.broker.consumer(group)
        const started = consumer.run([topic], { onBatch: async () => undefined, onRevoked: async () => undefined }).catch(() => undefined)
        await sleep(delayMs)
        const stoppedAt = Date.now()
        await consumer.stop()
        await started
        // run() does not wait out its join timeout once stopped
        expect(Date.now() - stoppedAt, `stopped after ${delayMs} ms`).toBeLessThan(10_000)
      }))
      // a member left running joins within a few seconds and stays (it heartbeats)
      const until = Date.now() + 6000
      while (Date.now() < until) {
        for (const { delayMs, group } of groups) expect(await admin.members(group), `stopped after ${delayMs} ms`).toEqual([])
        await sleep(500)
      }
    })

    it('members: a running consumer is listed with its client id and host; its group offsets do not move', async () => {
      sut = await make()
      const { topic, endsAfter: ends } = await topicWith(10, 0)
      const admin = sut.broker.groupAdmin()
      const group = unique('group')
      const consumer = sut.broker.consumer(group)
      running.push(consumer)
      let committed = 0
      await consumer.run([topic], {
        onBatch: async (rs) => {
          const last = rs.at(-1)!
          await consumer.commit([{ topic: last.topic, partition: last.partition, offset: String(Number(last.offset) + 1) }])
          committed += rs.length
        },
        onRevoked: async () => undefined,
      })
      await eventually(() => committed >= sum(ends), 30_000, `the topic's ${sum(ends)} records`)
      const members = await admin.members(group)
      expect(members).toHaveLength(1)
      expect(members[0]?.clientId).not.toBe('')
      expect(members[0]?.host).not.toBe('')
      const before = await admin.committedOffsets(group, topic)
      expect(before).toEqual(new Map([...ends].filter(([, high]) => high !== '0')))
      // the broker refuses a group with members; the adapter says so even where its client does not
      await expect(admin.setOffsets(group, topic, [{ partition: 0, offset: '0' }, { partition: 1, offset: '0' }, { partition: 2, offset: '0' }])).rejects.toThrow()
      expect(await admin.committedOffsets(group, topic)).toEqual(before)
    })
  })
}
