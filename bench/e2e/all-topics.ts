import type { ClickHouseClient } from '@clickhouse/client'
import kafkajs from 'kafkajs'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { FUNNEL_STAGES } from '../../src/domain/funnel.js'
import { FACT_KEY } from '../soak/end-check.js'
import { TrafficModel } from '../soak/traffic.js'
import { partsRowCount, sleep } from './infra.js'

// bench:e2e --all-topics: a backlog on all 16 topics at once, in the soak's traffic shares (clean:
// no poison, late or missing dimension, no repeat), and what each table must hold when it is in.

/** Distinct identities the store must hold, per table (facts, dimensions) and per funnel stage. */
export interface Expected {
  readonly facts: Map<string, Set<string>>
  readonly stages: Map<string, Set<string>>
  readonly dims: Map<string, Set<string>>
  /** Steady mode: when each fact's record was sent (epoch ms), by table, by its identity (FACT_KEY). */
  readonly sentAt: Map<string, Map<string, number>>
}

/** The run's topic of each consumer (by registry key), and the registry topic it stands for. */
export const allTopicsOf = (run: string): Record<string, string> =>
  Object.fromEntries(CONSUMERS.map((c) => [c.key, `bench-${run}-all-${c.key.toLowerCase().replace(/_/g, '-')}`]))

const add = (m: Map<string, Set<string>>, k: string, v: string) => {
  let s = m.get(k)
  if (!s) m.set(k, (s = new Set()))
  s.add(v)
}

/**
 * Produces `n` records over every consumer's topic (`topics` by registry key) and returns what the
 * store must hold. `perSecond` > 0: at that rate (a tenth of a second's records at a time, event
 * times current), each fact's send time kept; 0: as fast as the broker takes them.
 */
export const produceAllTopics = async (brokers: readonly string[], topics: Readonly<Record<string, string>>, n: number, perSecond = 0): Promise<Expected> => {
  const model = new TrafficModel({ seed: 37, poison: 0, late: 0, gap: 0, repeat: 0, structured: 0.2 })
  const topicOf = new Map(CONSUMERS.map((c) => [c.topic, topics[c.key] as string]))
  const expected: Expected = { facts: new Map(), stages: new Map(), dims: new Map(), sentAt: new Map() }
  const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-bench-all', brokers: [...brokers], logLevel: kafkajs.logLevel.NOTHING })
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()
  try {
    const started = Date.now()
    const chunkSize = perSecond > 0 ? Math.max(1, Math.floor(perSecond / 10)) : 10_000
    let made = 0
    while (made < n) {
      if (perSecond > 0) await sleep(Math.max(0, started + (made * 1000) / perSecond - Date.now()))
      const now = perSecond > 0 ? Date.now() : started
      const size = Math.min(chunkSize, n - made)
      const chunk = made === 0 ? [...model.bootstrap(now, 200), ...model.next(now, Math.max(0, size - 200))] : model.next(now, size)
      made += chunk.length
      const byTopic = new Map<string, kafkajs.Message[]>()
      for (const { record, entry } of chunk) {
        const topic = topicOf.get(record.topic) as string
        let messages = byTopic.get(topic)
        if (!messages) byTopic.set(topic, (messages = []))
        messages.push({ key: record.key, value: record.value, headers: record.headers })
        if (entry.Outcome !== 'row') continue
        if (entry.FactTable) {
          add(expected.facts, entry.FactTable, entry.FactKey)
          if (perSecond > 0) sentAtOf(expected, entry.FactTable).set(entry.FactKey, now)
        }
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

const sentAtOf = (e: Expected, table: string): Map<string, number> => {
  let m = e.sentAt.get(table)
  if (!m) e.sentAt.set(table, (m = new Map()))
  return m
}

/** A flush interval of the service's default settings (DEV_STATS_FLUSH_INTERVAL_MS). */
const FLUSH_INTERVAL_MS = 5000

/**
 * Steady mode: send-to-stored seconds of every fact (its first IngestionTime, whole seconds rounded
 * up, minus its send time), p50 and p99 over the fact tables together. The steady window leaves out
 * both ends: the first 10 s, and the last flush interval, whose records wait out the interval in
 * the last partial batches once the producer stops (a stream that goes on fills them).
 */
export const factLatencies = async (
  ch: ClickHouseClient,
  db: string,
  e: Expected,
): Promise<{ n: number; p50: number; p99: number; p99After10s: number; p99Steady: number; p99SessionsSteady: number }> => {
  const timed: { table: string; sent: number; seconds: number }[] = []
  for (const [table, sent] of e.sentAt) {
    const r = await ch.query({ query: `SELECT ${FACT_KEY[table]} AS k, toUnixTimestamp(min(IngestionTime)) AS s FROM ${db}.${table} GROUP BY k`, format: 'JSONEachRow' })
    for (const { k, s } of (await r.json()) as { k: string; s: string }[]) {
      const at = sent.get(k)
      if (at !== undefined) timed.push({ table, sent: at, seconds: ((Number(s) + 1) * 1000 - at) / 1000 })
    }
  }
  const first = timed.reduce((a, t) => Math.min(a, t.sent), Number.POSITIVE_INFINITY)
  const last = timed.reduce((a, t) => Math.max(a, t.sent), Number.NEGATIVE_INFINITY)
  const quantile = (xs: number[], x: number) => xs.sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(x * xs.length))] ?? Number.NaN
  const all = timed.map((t) => t.seconds)
  // the first seconds' views can wait for dimensions sent beside them (parked, then retried): apart
  const settled = timed.filter((t) => t.sent >= first + 10_000).map((t) => t.seconds)
  const steady = timed.filter((t) => t.sent >= first + 10_000 && t.sent <= last - FLUSH_INTERVAL_MS)
  // session facts need no dimension: never parked, the pipeline's own time
  const sessions = steady.filter((t) => t.table === 'session_facts').map((t) => t.seconds)
  return {
    n: all.length,
    p50: quantile(all, 0.5),
    p99: quantile(all, 0.99),
    p99After10s: quantile(settled, 0.99),
    p99Steady: quantile(steady.map((t) => t.seconds), 0.99),
    p99SessionsSteady: quantile(sessions, 0.99),
  }
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

/** Records settled per bucket of the service's arrival histogram, summed over its consumers: `le` → count (Infinity: all). */
export const arrivalBuckets = (metrics: string): Map<number, number> => {
  const buckets = new Map<number, number>()
  for (const m of metrics.matchAll(/^dev_stats_arrival_lag_seconds_bucket\{le="([^"]+)",[^}]*\} (\d+)$/gm)) {
    const le = m[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(m[1])
    buckets.set(le, (buckets.get(le) ?? 0) + Number(m[2]))
  }
  return buckets
}

/**
 * The share of the records the service settled between two scrapes of its /metrics that arrived in
 * Kafka at most `seconds` before (exact at a bucket bound; parked copies are not in the histogram).
 */
export const settledWithin = (before: string, after: string, seconds: number): { within: number; total: number } => {
  const [a, b] = [arrivalBuckets(before), arrivalBuckets(after)]
  const delta = (le: number) => (b.get(le) ?? 0) - (a.get(le) ?? 0)
  if (!b.has(seconds)) throw new Error(`the service's arrival histogram has no bucket at ${seconds} s`)
  return { within: delta(seconds), total: delta(Number.POSITIVE_INFINITY) }
}

/** Rows each fact and dimension table still lacks by its parts' metadata: a lower bound of what `shortfall` finds, read without a column. */
const rowsShort = async (ch: ClickHouseClient, db: string, e: Expected): Promise<number> => {
  let short = 0
  for (const [table, keys] of [...e.facts, ...e.dims]) short += Math.max(0, keys.size - (await partsRowCount(ch, `${db}.${table}`)))
  return short
}

/**
 * Until every table holds what it must (polled each second); fails after 180 s without progress.
 * The exact count reads every row, and its ClickHouse CPU would be billed to the contender: it runs
 * only once the parts hold enough rows.
 */
export const waitForAll = async (ch: ClickHouseClient, db: string, e: Expected): Promise<number> => {
  let left = Number.POSITIVE_INFINITY
  let progressAt = Date.now()
  for (;;) {
    const short = await rowsShort(ch, db, e)
    const missing = short > 0 ? short : Object.values(await shortfall(ch, db, e)).reduce((a, b) => a + Math.max(0, b), 0)
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
