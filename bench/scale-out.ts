// npm run bench:scale [-- --events N --clients kafkajs,confluent]: the service's throughput with
// 1, 2 and 3 `npm start` instances in one group, side by side in one run, on the real broker and
// ClickHouse server. Each row: a fresh 6-partition topic, n instances started and joined, then N
// session-ended events produced at once; records/s = N / (time from the first send until all N
// are visible in ClickHouse), start-up and joining excluded; every event is checked to be there once.
// Take it under the integration lock on a shared machine:
//   flock /tmp/dev-stats-integration.lock npm run bench:scale
import { cpus, loadavg } from 'node:os'
import { clickhouse, createTopics, deleteTopics, groupMembers, KAFKA_BROKERS, sleep } from './e2e/infra.js'
import { producer, runId } from './e2e/records.js'
import { startService, type ServiceRun } from './e2e/service.js'
import { exactlyOnce, verify } from './e2e/verify.js'

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback
}
const EVENTS = Number(arg('events', '200000'))
const CLIENTS = arg('clients', 'kafkajs,confluent').split(',') as ('kafkajs' | 'confluent')[]
const PARTITIONS = 6
const ch = clickhouse()
const topics: string[] = []

const distinctRows = async (table: string): Promise<number> => {
  const r = await ch.query({ query: `SELECT uniqExact(FactId) AS n FROM ${table}`, format: 'JSONEachRow' })
  return Number(((await r.json()) as { n: string }[])[0]?.n ?? 0)
}

/** Seconds from `since` until all of the events are visible; fails after 120 s without progress. */
const measure = async (table: string, since: number): Promise<number> => {
  let last = -1
  let progressAt = Date.now()
  for (;;) {
    const n = await distinctRows(table)
    if (n >= EVENTS) return (performance.now() - since) / 1000
    if (n > last) [last, progressAt] = [n, Date.now()]
    if (Date.now() - progressAt > 120_000) throw new Error(`${table}: stuck at ${n} of ${EVENTS} for 120 s`)
    await sleep(200)
  }
}

const row = async (client: 'kafkajs' | 'confluent', instances: number) => {
  const suffix = `${client}_${instances}`
  const topic = `bench.scale.${runId}.${suffix}`
  topics.push(topic)
  await createTopics([{ name: topic, partitions: PARTITIONS }])
  const db = `bench_scale_${runId}_${suffix}`
  const group = `bench-scale-${runId}-${suffix}`
  const runs: ServiceRun[] = []
  for (let i = 0; i < instances; i++) runs.push(await startService({ client, db, topic, group }))
  topics.push(...runs.flatMap((r) => r.createdTopics))
  try {
    // Every instance in the group before the events arrive: the figure is consuming, not joining.
    await Promise.all(runs.map((r) => r.ready))
    for (let t = 0; (await groupMembers(`${group}-session_ended`)) < instances; t++) {
      if (t > 300) throw new Error(`${instances} instances did not all join ${group}-session_ended in 60 s`)
      await sleep(200)
    }
    const p = await producer(KAFKA_BROKERS, topic)
    const since = performance.now()
    const sent = p.send(0, EVENTS).then(() => performance.now() - since)
    const seconds = await measure(`${db}.session_facts`, since)
    const sendSeconds = (await sent) / 1000
    await p.close()
    const verdict = await verify(ch, `${db}.session_facts`, EVENTS)
    return { client, instances, perSecond: Math.round(EVENTS / seconds), seconds, sendSeconds, rows: verdict.rows, exact: exactlyOnce(verdict, EVENTS) }
  } finally {
    for (const r of runs) await r.stop().catch((e: unknown) => console.error(String(e)))
    await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` })
  }
}

const main = async () => {
  console.log(`scale-out bench: ${EVENTS} session-ended events, ${PARTITIONS} partitions, ${cpus().length} cores (${cpus()[0]?.model ?? '?'}), load ${loadavg().map((l) => l.toFixed(1)).join(' ')}`)
  const lines = []
  for (const client of CLIENTS) {
    for (const n of [1, 2, 3]) {
      const line = await row(client, n)
      lines.push(line)
      console.log(`  ${client} × ${n}: ${line.perSecond} records/s`)
    }
  }
  console.log('\n| client | instances | s (producing s) | records/s | vs 1 instance | rows (redeliveries incl.) | every event once |')
  console.log('| --- | --- | --- | --- | --- | --- | --- |')
  for (const l of lines) {
    const one = lines.find((o) => o.client === l.client && o.instances === 1)?.perSecond ?? l.perSecond
    console.log(`| ${l.client} | ${l.instances} | ${l.seconds.toFixed(1)} (${l.sendSeconds.toFixed(1)}) | ${l.perSecond} | ${(l.perSecond / one).toFixed(2)}× | ${l.rows} | ${l.exact ? 'yes' : 'NO'} |`)
  }
  if (lines.some((l) => !l.exact)) process.exitCode = 1
}

main()
  .catch((e: unknown) => {
    console.error(e)
    process.exitCode = 1
  })
  .finally(async () => {
    await deleteTopics(topics)
    await ch.close()
  })
