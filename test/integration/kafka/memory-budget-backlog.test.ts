import { createClient } from '@clickhouse/client'
import kafkajs from 'kafkajs'
import { afterAll, describe, expect, it } from 'vitest'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { isolatedDeployment, type Deployment } from '../../support/deployment.js'
import { binaryRecord, funnelEventPayload, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload, viewEndedPayload } from '../../support/events.js'
import { KAFKA_ADAPTERS, KAFKA_BROKERS } from '../../support/kafka.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { rssInGroup, sampler } from '../../support/process-rss.js'
import { removeRunResources, testAdmin } from '../../support/run-resources.js'

// Issue 46.1: after an outage, a backlog of wide records (≥ 16 kB each: additive fields) on five
// topics, more than 1 GB, and `npm start` with its default settings: every record stored once and
// the service's RSS, sampled every second, never above 384 MB. Then the same backlog read again by
// a second deployment (own groups, own database) with a lower budget: under the same bound.
// Heavy (1 GB into Kafka, two catch-ups per client): DEV_STATS_BACKLOG_RECORDS sets the records
// per topic (default 13,000: 5 × 13,000 × ~16.6 kB ≈ 1.08 GB).
const PER_TOPIC = Number(process.env.DEV_STATS_BACKLOG_RECORDS ?? 13_000)
const RSS_LIMIT = 384 * 1024 * 1024
const PADDING = 'p'.repeat(16 * 1024)
const KEYS = ['SESSION_ENDED', 'VIEW_ENDED', 'ACTION_TRACKED', 'FAVORITES', 'SELECTIONS'] as const
const topics: string[] = []
const databases: string[] = []

afterAll(() => removeRunResources(topics, databases), 120_000)

/** The backlog: one property object first (no record waits for its dimension), then the wide records, in requests under the broker's 1 MB per partition. */
const produceBacklog = async (d: Deployment): Promise<void> => {
  const kafka = new kafkajs.Kafka({ clientId: 'dev-stats-test-backlog', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING })
  const producer = kafka.producer({ allowAutoTopicCreation: false })
  await producer.connect()
  const send = async (records: ReturnType<typeof binaryRecord>[]) => {
    for (let i = 0; i < records.length; i += 90) {
      const chunk = records.slice(i, i + 90)
      await producer.send({ topic: chunk[0]!.topic, acks: 1, messages: chunk.map((r) => ({ key: r.key ? Buffer.from(r.key) : null, value: Buffer.from(r.value!), headers: r.headers })) })
    }
  }
  try {
    const p = path()
    await send([binaryRecord(d.topicsOf('PROPERTY_OBJECT_UPSERTED').source, propertyObjectUpsertedPayload(p))])
    const wide = { Padding: PADDING }
    const make: Record<(typeof KEYS)[number], () => unknown> = {
      SESSION_ENDED: () => sessionEndedPayload(wide),
      VIEW_ENDED: () => viewEndedPayload(p, guid(), wide),
      ACTION_TRACKED: () => viewActionPayload(p, wide),
      FAVORITES: () => funnelEventPayload('FavoriteId', p.PropertyObjectId, wide),
      SELECTIONS: () => funnelEventPayload('SelectionItemId', p.PropertyObjectId, wide),
    }
    for (const key of KEYS) {
      for (let n = 0; n < PER_TOPIC; n += 1000) {
        await send(Array.from({ length: Math.min(1000, PER_TOPIC - n) }, () => binaryRecord(d.topicsOf(key).source, make[key]())))
      }
    }
  } finally {
    await producer.disconnect()
  }
}

/** Distinct identities in the store: sessions, view facts (open + closed), and the three stages. */
const stored = async (database: string) => {
  const ch = createClient({ url: clickhouseUrl(), username: 'default', password: '' })
  const one = async (query: string) => Number(Object.values(((await (await ch.query({ query, format: 'JSONEachRow' })).json()) as Record<string, string>[])[0] ?? {})[0] ?? 0)
  try {
    return {
      sessions: await one(`SELECT uniqExact(SessionId) FROM ${database}.session_facts`),
      views: await one(`SELECT uniqExact(concat(FactId, '/', toString(IsClosed))) FROM ${database}.property_object_view_facts`),
      favorites: await one(`SELECT uniqMerge(Favorites) FROM ${database}.funnel_daily`),
      selections: await one(`SELECT uniqMerge(Selections) FROM ${database}.funnel_daily`),
    }
  } finally {
    await ch.close()
  }
}

/** Every consumer of the five topics committed to the end of its source and retry topics, and nothing was dead-lettered. */
const stageOffsetsDone = async (d: Deployment): Promise<boolean> => {
  const admin = testAdmin()
  await admin.connect()
  try {
    for (const key of KEYS) {
      const t = d.topicsOf(key)
      const ends = await admin.fetchTopicOffsets(t.source)
      if ((await admin.fetchTopicOffsets(t.deadLetter)).some((p) => p.high !== '0')) throw new Error(`dead letters on ${t.deadLetter}`)
      const [committed] = await admin.fetchOffsets({ groupId: d.groupOf(key), topics: [t.source] })
      const at = new Map(committed?.partitions.map((p) => [p.partition, p.offset]))
      if (ends.some((p) => at.get(p.partition) !== p.high)) return false
    }
    return true
  } finally {
    await admin.disconnect()
  }
}

/** `npm start` on `d` until the backlog is in; its peak RSS. */
const catchUp = async (d: Deployment, env: Record<string, string>) => {
  expect(npmRun(['migrate'], d.env)).toMatchObject({ code: 0 })
  // the service's defaults: the deployment's shorter flush interval for tests put back
  const service = new NpmStart({ ...d.env, DEV_STATS_FLUSH_INTERVAL_MS: '5000', ...env })
  const rss = sampler(() => rssInGroup(service.group, 'service.mjs'))
  // the funnel stages are uniq states: a 32-bit hash collision among 13,000 keys (about 2 % likely)
  // counts one less, so they are held to their exact offsets instead (stageOffsetsDone)
  const done = (s: Awaited<ReturnType<typeof stored>>) =>
    s.sessions === PER_TOPIC && s.views === 2 * PER_TOPIC && s.favorites >= PER_TOPIC - 2 && s.selections >= PER_TOPIC - 2
  const started = performance.now()
  try {
    for (let last = await stored(d.database); !done(last) || !(await stageOffsetsDone(d)); last = await stored(d.database)) {
      if (performance.now() - started > 900_000) throw new Error(`not caught up in 15 min: ${JSON.stringify(last)}\n${service.output.slice(-3000)}`)
      await new Promise((r) => setTimeout(r, 5000))
    }
    return { peak: rss.peak, samples: rss.samples, seconds: (performance.now() - started) / 1000 }
  } finally {
    rss.stop()
    await service.stop(60_000)
  }
}

describe.each(KAFKA_ADAPTERS)('a backlog of wide records over five topics, with the memory budget (%s)', (adapter) => {
  it('is stored once with the defaults and RSS never above 384 MB; read again with a lower budget, under it too', async () => {
    const d = isolatedDeployment(adapter, 'budget')
    topics.push(...d.topics)
    databases.push(d.database)
    const made = npmRun(['topics'], d.env)
    expect(made.code, made.output).toBe(0)
    await produceBacklog(d)

    const defaults = await catchUp(d, {})
    console.info(`[${adapter}] defaults: ${5 * PER_TOPIC} records in ${defaults.seconds.toFixed(0)} s, peak RSS ${(defaults.peak / 2 ** 20).toFixed(0)} MB over ${defaults.samples} samples`)
    expect(defaults.samples).toBeGreaterThan(5)
    expect(defaults.peak).toBeLessThanOrEqual(RSS_LIMIT)

    // the same backlog, new groups and a new database, a quarter of the default budget
    const again = isolatedDeployment(adapter, 'budget-low')
    const env: Record<string, string> = { ...again.env, DEV_STATS_MEMORY_BUDGET_MB: '16' }
    for (const c of d.consumers) env[`DEV_STATS_TOPIC_${c.spec.key}`] = c.topics.source
    topics.push(...again.consumers.flatMap((c) => [c.topics.deadLetter, c.topics.retry]))
    databases.push(again.database)
    const provisioned = npmRun(['topics'], env)
    expect(provisioned.code, provisioned.output).toBe(0)
    const low = await catchUp({ ...again, env, topicsOf: (key) => ({ ...again.topicsOf(key), source: d.topicsOf(key).source, deadLetter: d.topicsOf(key).deadLetter }) }, {})
    console.info(`[${adapter}] budget 16 MiB: ${5 * PER_TOPIC} records in ${low.seconds.toFixed(0)} s, peak RSS ${(low.peak / 2 ** 20).toFixed(0)} MB over ${low.samples} samples`)
    expect(low.peak).toBeLessThanOrEqual(RSS_LIMIT)
  }, 3_600_000)
})
