import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import kafkajs from 'kafkajs'
import { afterEach, describe, expect, it } from 'vitest'
import { SHARED_ASSIGNMENT_PROTOCOL } from '../../../src/adapters/kafka/kafkajs/shared-assigner.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { FileFactStore } from '../../support/file-fact-store.js'
import { KAFKA_BROKERS, createConsumerTopics, kafkaBroker, lagOf, sessionStream, type KafkaAdapter } from '../../support/kafka.js'
import { eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { ChildConsumer } from './child-consumer.js'

// Issue 11 part 4: a group of two kafkajs members is replaced, one member at a time, by
// librdkafka members while events are produced. Both clients speak librdkafka's `roundrobin`
// protocol, so after every step the group is Stable with two members that each own partitions,
// no member logs a join failure, and no event is missing at the end.
const EVENTS = 6000
const STEPS = 6

const { AssignerProtocol } = kafkajs

/** The group as the broker describes it: state, protocol, and each member's partition count. */
const describeGroup = async (groupId: string) => {
  const admin = new kafkajs.Kafka({ clientId: 'rolling-swap-check', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin()
  await admin.connect()
  try {
    const { groups: [g] } = await admin.describeGroups([groupId])
    const owned = (g?.members ?? []).map((m) => {
      const a = AssignerProtocol.MemberAssignment.decode(m.memberAssignment)
      return Object.values(a?.assignment ?? {}).reduce((n, ps) => n + ps.length, 0)
    })
    return { state: g?.state, protocol: g?.protocol, owned }
  } finally {
    await admin.disconnect()
  }
}

describe('rolling restart from kafkajs to librdkafka', () => {
  const children: ChildConsumer[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill()
  })

  it('keeps the group consuming: every member joins, every event arrives', async () => {
    const handler = isolated(sessionEndedHandler, 'rolling-swap')
    await createConsumerTopics(handler)
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-swap-'))
    const broker = kafkaBroker('kafkajs')
    const producer = broker.producer()
    const { records, expected } = sessionStream(handler.topic, EVENTS)
    const files: string[] = []
    const member = async (adapter: KafkaAdapter) => {
      const file = join(dir, `${files.length}-${adapter}.jsonl`)
      files.push(file)
      const c = new ChildConsumer(adapter, { TOPIC: handler.topic, GROUP: handler.groupId, STORE_FILE: file, MAX_BATCH_ROWS: '100', STORE_DELAY_MS: '50' })
      children.push(c)
      await c.ready
      return c
    }
    const stable = async (what: string) => {
      let last: Awaited<ReturnType<typeof describeGroup>> | undefined
      await eventuallyAsync(async () => {
        last = await describeGroup(handler.groupId)
        return last.state === 'Stable' && last.owned.length === 2 && last.owned.every((n) => n > 0)
      }, 60_000, `${what}: group Stable with two members owning partitions (last: ${JSON.stringify(last)})`)
      expect(last?.protocol).toBe(SHARED_ASSIGNMENT_PROTOCOL)
    }
    const chunk = EVENTS / STEPS
    const publish = (i: number) => producer.publish(records.slice(i * chunk, (i + 1) * chunk))

    try {
      let [a, b] = [await member('kafkajs'), await member('kafkajs')]
      await publish(0)
      await stable('two kafkajs members')
      await publish(1)
      await a.kill('SIGTERM')
      const publishing = publish(2)
      a = await member('confluent')
      await publishing
      await stable('kafkajs + librdkafka')
      await publish(3)
      await b.kill('SIGTERM')
      const more = publish(4)
      b = await member('confluent')
      await more
      await stable('two librdkafka members')
      await publish(5)

      const factIds = () => files.flatMap((f) => FileFactStore.read(f)).map((r) => (r.fact.row as { factId: string }).factId)
      await eventuallyAsync(async () => new Set(factIds()).size >= EVENTS && (await lagOf(handler.groupId, handler.topic)) === 0, 120_000, 'all events stored')
      const output = children.map((c) => c.output).join('\n')
      expect(output).not.toMatch(/inconsistent group protocol|INCONSISTENT_GROUP_PROTOCOL/i)
      const stored = new Set(factIds())
      const missing = [...expected].filter((id) => !stored.has(id))
      console.info(`[rolling swap] events ${EVENTS}, stored per member ${files.map((f) => FileFactStore.read(f).length).join('/')}, missing ${missing.length}`)
      expect(missing).toEqual([])
      expect(FileFactStore.read(files[3] as string).length).toBeGreaterThan(0)
    } finally {
      await broker.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
