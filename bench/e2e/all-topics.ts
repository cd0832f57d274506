import type { ClickHouseClient } from '@clickhouse/client'
import kafkajs from 'kafkajs'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { FUNNEL_STAGES } from '../../src/domain/funnel.js'
import { FACT_KEY } from '../soak/end-check.js'
import { TrafficModel } from '../soak/traffic.js'
import { sleep } from './infra.js'

// bench:e2e --all-topics: a backlog on all 16 topics at once, in the soak's traffic shares (clean:
// no poison, late or missing dimension, no repeat), and what each table must hold when it is in.

/** Distinct identities the store must hold, per table (facts, dimensions) and per funnel stage. */
export interface Expected {
  readonly facts: Map<string, Set<string>>
  readonly stages: Map<string, Set<string>>
  readonly dims: Map<string, Set<string>>
}

/** The run's topic of each consumer (by registry key), and the registry topic it stands for. */
export const allTopicsOf = (run: string): Record<string, string> =>
  Object.fromEntries(CONSUMERS.map((c) => [c.key, `bench-${run}-all-${c.key.toLowerCase().replace(/_/g, '-')}`]))

const add = (m: Map<string, Set<string>>, k: string, v: string) => {
  let s = m.get(k)
  if (!s) m.set(k, (s = new Set()))
  s.add(v)
}

/** Produces `n` records over every consumer's topic (`topics` by registry key) and returns what the store must hold. */
export const produceAllTopics = async (brokers: readonly string[], topics: Readonly<Record<string, string>>, n: number): Promise<Expected> => {
  const model = new TrafficModel({ seed: 37, poison: 0, late: 0, gap: 0, repeat: 0, structured: 0.2 })
  const topicOf = new Map(CONSUMERS.map((c) => [c.topic, topics[c.key] as string]))
  const expected: Expected = { facts: new Map(), stages: new Map(), dims: new Map() }
  const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-bench-all', brokers: [...brokers], logLevel: kafkajs.logLevel.NOTHING })
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()
  try {
    const now = Date.now()
    let made = 0
    while (made < n) {
      const chunk = made === 0 ? [...model.bootstrap(now, 200), ...model.next(now, Math.min(n, 10_000) - 200)] : model.next(now, Math.min(10_000, n - made))
      made += chunk.length
      const byTopic = new Map<string, kafkajs.Message[]>()
      for (const { record, entry } of chunk) {
        const topic = topicOf.get(record.topic) as string
        let messages = byTopic.get(topic)
        if (!messages) byTopic.set(topic, (messages = []))
        messages.push({ key: record.key, value: record.value, headers: record.headers })
        if (entry.Outcome !== 'row') continue
        if (entry.FactTable) add(expected.facts, entry.FactTable, entry.FactKey)
        if (entry.Stage) add(expected.stages, entry.Stage, entry.BusinessKey)
        if (entry.DimTable) add(expected.dims, entry.DimTable, entry.DimId)
      }
      await producer.sendBatch({ topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })), acks: 1 })
    }
  } finally {
    await producer.disconnect()
  }
  return expected
}

const one = async (ch: ClickHouseClient, query: string): Promise<number> => {
  const r = await ch.query({ query, format: 'JSONEachRow' })
  return Number(Object.values(((await r.json()) as Record<string, string>[])[0] ?? {})[0] ?? 0)
}

// `uniq` is exact below 65,536 distinct values: the Views stage (45 % of the records) is checked
// through the view facts instead, exactly.
const EXACT_STAGES = FUNNEL_STAGES.filter((s) => s !== 'Views')

/** What the store of `db` holds of each expected identity: `missing` per table and stage (0 everywhere: every record once). */
export const shortfall = async (ch: ClickHouseClient, db: string, e: Expected): Promise<Record<string, number>> => {
  const out: Record<string, number> = {}
  for (const [table, keys] of e.facts) out[table] = keys.size - (await one(ch, `SELECT uniqExact(${FACT_KEY[table]}) FROM ${db}.${table}`))
  for (const [table, ids] of e.dims) out[table] = ids.size - (await one(ch, `SELECT uniqExact(Id) FROM ${db}.${table}`))
  for (const stage of EXACT_STAGES) {
    const keys = e.stages.get(stage)
    if (keys) out[`funnel ${stage}`] = keys.size - (await one(ch, `SELECT uniqMerge(${stage}) FROM ${db}.funnel_daily`))
  }
  return out
}

/** Until every table holds what it must (polled each second); fails after 180 s without progress. */
export const waitForAll = async (ch: ClickHouseClient, db: string, e: Expected): Promise<number> => {
  let left = Number.POSITIVE_INFINITY
  let progressAt = Date.now()
  for (;;) {
    const missing = Object.values(await shortfall(ch, db, e)).reduce((a, b) => a + Math.max(0, b), 0)
    if (missing === 0) return performance.now()
    if (missing < left) [left, progressAt] = [missing, Date.now()]
    if (Date.now() - progressAt > 180_000) throw new Error(`${db}: ${missing} records missing and no progress for 180 s`)
    await sleep(1000)
  }
}

/** The most active parts any partition of each table of `db` held, sampled every 500 ms until `stop`. */
export const watchParts = (ch: ClickHouseClient, db: string): { stop(): Promise<Map<string, number>> } => {
  const peaks = new Map<string, number>()
  let running = true
  const loop = (async () => {
    while (running) {
      const r = await ch.query({
        query: `SELECT table, max(c) AS peak FROM (SELECT table, partition, count() AS c FROM system.parts WHERE database = '${db}' AND active GROUP BY table, partition) GROUP BY table`,
        format: 'JSONEachRow',
      })
      for (const { table, peak } of (await r.json()) as { table: string; peak: string }[]) peaks.set(table, Math.max(peaks.get(table) ?? 0, Number(peak)))
      await sleep(500)
    }
  })()
  return { stop: async () => ((running = false), await loop, peaks) }
}
