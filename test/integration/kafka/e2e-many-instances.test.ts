import kafkajs from 'kafkajs'
import { afterAll, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { KAFKA_ADAPTERS, KAFKA_BROKERS, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { freePort } from '../../support/http.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources, testAdmin } from '../../support/run-resources.js'

// Issue 11 part 2: three `npm start` processes share every consumer group; session-ended's topic
// has 6 partitions. The partitions spread (2 each), a member SIGKILLed and a member that leaves
// (SIGTERM) mid-stream hand theirs over to the survivor, and ClickHouse ends with every event
// exactly once (logically: distinct FactIds, and one row each after merging duplicates).
const EVENTS = 6000
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const { AssignerProtocol } = kafkajs
const createdTopics: string[] = []
const databases: string[] = []

/** Partitions of `topic` owned by each member of the group (which also reads its retry topic), as the broker describes it. */
const ownedPerMember = async (groupId: string, topic: string): Promise<number[]> => {
  const a = testAdmin()
  await a.connect()
  try {
    const { groups: [g] } = await a.describeGroups([groupId])
    if (g?.state !== 'Stable') return []
    return g.members.map((m) => AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment[topic]?.length ?? 0)
  } finally {
    await a.disconnect()
  }
}

afterAll(() => removeRunResources(createdTopics, databases))

describe.each(KAFKA_ADAPTERS)('three npm start instances in one group (%s)', (adapter) => {
  it('spread the 6 partitions, hand them over on SIGKILL and on leave, and store every event once', async () => {
    const suffix = `many-${adapter}-${run}`
    const database = `many_instances_${adapter}_${run}`
    databases.push(database)
    const env: Record<string, string> = {
      DEV_STATS_BROKER: adapter, DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','), DEV_STATS_STORE: 'clickhouse',
      DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(), DEV_STATS_CLICKHOUSE_DATABASE: database, DEV_STATS_FLUSH_INTERVAL_MS: '300', DEV_STATS_BATCH_MAX_ROWS: '200',
    }
    for (const c of CONSUMERS) {
      env[`DEV_STATS_TOPIC_${c.key}`] = `${c.topic}.${suffix}`
      env[`DEV_STATS_GROUP_${c.key}`] = `${c.groupId}.${suffix}`
      createdTopics.push(`${c.topic}.${suffix}`, `${c.topic}.${suffix}.dlq`, `${c.groupId}.${suffix}.retry`)
    }
    const topic = env['DEV_STATS_TOPIC_SESSION_ENDED'] as string
    const group = env['DEV_STATS_GROUP_SESSION_ENDED'] as string
    expect(npmRun(['migrate'], env).code).toBe(0)
    const topics = npmRun(['topics'], env)
    expect(topics.code, topics.output).toBe(0)

    const instances: NpmStart[] = []
    const broker = kafkaBroker(adapter)
    try {
      for (let i = 0; i < 3; i++) instances.push(new NpmStart({ ...env, DEV_STATS_HTTP_PORT: String(await freePort()) }))
      for (const s of instances) await eventuallyAsync(() => s.logLine(/^consuming from/) !== undefined, 120_000, `npm start consuming:\n${s.output}`)
      const { records, expected } = sessionStream(topic, EVENTS)
      await broker.producer().publish(records.slice(0, EVENTS / 2))
      await eventuallyAsync(async () => (await ownedPerMember(group, topic)).join() === '2,2,2', 60_000, 'two partitions per instance')

      const rest = broker.producer().publish(records.slice(EVENTS / 2))
      await instances[2]?.kill()
      await instances[1]?.stop()
      await rest
      await eventuallyAsync(async () => (await ownedPerMember(group, topic)).join() === '6', 60_000, 'the survivor owns all six partitions')
      await eventuallyAsync(async () => (await lagOf(group, topic)) === 0, 120_000, 'the group caught up')

      const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database })
      const [row] = await session.select<{ rows: string; distinct: string; merged: string }>(sql`
        SELECT count() AS rows, uniqExact(FactId) AS distinct, (SELECT count() FROM ${ident(database)}.session_facts FINAL) AS merged
        FROM ${ident(database)}.session_facts`)
      const ids = new Set((await session.select<{ FactId: string }>(sql`SELECT DISTINCT FactId FROM ${ident(database)}.session_facts`)).map((r) => r.FactId))
      await session.close()
      console.info(`[many instances ${adapter}] events ${EVENTS}: rows ${row?.rows} (redeliveries included), distinct ${row?.distinct}, after merge ${row?.merged}`)
      expect([...expected].filter((id) => !ids.has(id))).toEqual([])
      expect(Number(row?.distinct)).toBe(EVENTS)
      expect(Number(row?.merged)).toBe(EVENTS)
    } finally {
      for (const s of instances) await s.stop()
      await broker.close()
    }
  })
})
