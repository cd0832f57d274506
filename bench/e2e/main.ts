// npm run bench:e2e: ClickHouse's own Kafka engine vs the service (kafkajs, librdkafka) on the
// real servers, side by side in one run. See bench/e2e/README section in the project README.
import { cpus, loadavg } from 'node:os'
import { parseOptions, type BenchOptions, type Contender } from './options.js'
import { clickhouse, createTopics, deleteTopics, KAFKA_BROKERS, rowCount, sleep } from './infra.js'
import { producer, produceSteadily, runId } from './records.js'
import { startClickHouseEngine } from './clickhouse-engine.js'
import { startService } from './service.js'
import { exactlyOnce, verify, type Verdict } from './verify.js'
import { printTable, type Line } from './table.js'
import type { ProcessUsage } from './process-usage.js'

const PARTITIONS = 3
const options = parseOptions(process.argv.slice(2))
const ch = clickhouse()
const topics: string[] = []
const databases: string[] = []

/** Polls the row count until `n` rows are there; fails after 120 s without progress. */
const waitForRows = async (table: string, n: number): Promise<number> => {
  let last = -1
  let progressAt = Date.now()
  for (;;) {
    const count = await rowCount(ch, table)
    if (count >= n) return performance.now()
    if (count > last) [last, progressAt] = [count, Date.now()]
    if (Date.now() - progressAt > 120_000) throw new Error(`${table}: stuck at ${count} of ${n} rows for 120 s`)
    await sleep(250)
  }
}

interface Runner {
  readonly label: string
  start(topic: string, suffix: string): Promise<{ table: string; startedAt: number; ready: Promise<number>; stop(): Promise<ProcessUsage | undefined> }>
}

const runners = (o: BenchOptions): Runner[] => {
  const list: Runner[] = []
  const service = (client: 'kafkajs' | 'confluent', label: string, extraEnv: Record<string, string> = {}): Runner => ({
    label,
    start: async (topic, suffix) => {
      const db = `bench_${runId}_${suffix}`
      databases.push(db)
      const logFile = o.logDir ? `${o.logDir}/${suffix}.log` : undefined
      const run = await startService({ client, db, topic, group: `bench-${runId}-${suffix}`, extraEnv, profileDir: o.profileDir, logFile })
      topics.push(...run.createdTopics)
      return run
    },
  })
  const wanted = (c: Contender) => o.only.includes(c)
  if (wanted('engine'))
    list.push({
      label: 'ClickHouse Kafka engine + MV',
      start: async (topic, suffix) => {
        const db = `bench_${runId}_${suffix}`
        databases.push(db)
        const run = await startClickHouseEngine(ch, db, topic, PARTITIONS)
        return { ...run, ready: run.joined().then(() => performance.now()), stop: async () => (await run.stop(), undefined) }
      },
    })
  const clients = (['kafkajs', 'confluent'] as const).filter(wanted)
  for (const c of clients) list.push(service(c, `npm start, ${c === 'confluent' ? 'librdkafka' : c}`))
  if (o.bigBatch > 0)
    for (const c of clients)
      list.push(service(c, `npm start, ${c === 'confluent' ? 'librdkafka' : c}, batch ${o.bigBatch}`, { DEV_STATS_BATCH_MAX_ROWS: String(o.bigBatch) }))
  return list
}

const suffixOf = (label: string) => label.replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 40)

const backlog = async (o: BenchOptions): Promise<Line[]> => {
  const topic = `bench-${runId}-session-ended`
  topics.push(topic)
  await createTopics([{ name: topic, partitions: PARTITIONS }])
  const p = await producer(KAFKA_BROKERS, topic)
  const t0 = performance.now()
  await p.send(0, o.records)
  await p.close()
  console.log(`produced ${o.records.toLocaleString('en')} records to ${topic} (${PARTITIONS} partitions) in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const lines: Line[] = []
  for (const r of runners(o)) {
    const run = await r.start(topic, suffixOf(r.label))
    const ready = await run.ready
    const doneAt = await waitForRows(run.table, o.records)
    const usage = await run.stop()
    const verdict = await verify(ch, run.table, o.records)
    lines.push(line(r.label, o.records, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, verdict))
    console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
  }
  return lines
}

const steady = async (o: BenchOptions): Promise<Line[]> => {
  const n = o.steady * o.seconds
  const lines: Line[] = []
  for (const r of runners(o)) {
    const topic = `bench-${runId}-steady-${suffixOf(r.label)}`
    topics.push(topic)
    await createTopics([{ name: topic, partitions: PARTITIONS }])
    const run = await r.start(topic, `steady_${suffixOf(r.label)}`)
    const ready = await run.ready
    const p = await producer(KAFKA_BROKERS, topic)
    const sentAt = await produceSteadily(p, n, o.steady)
    await p.close()
    const doneAt = await waitForRows(run.table, n)
    const usage = await run.stop()
    const verdict = await verify(ch, run.table, n, sentAt)
    lines.push(line(r.label, n, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, verdict))
    console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
  }
  return lines
}

const line = (label: string, n: number, seconds: number, startup: number, usage: ProcessUsage | undefined, v: Verdict): Line => ({
  label, n, seconds, startup, rssMb: usage?.peakMb, cpuSeconds: usage?.cpuSeconds, rows: v.rows, exactlyOnce: exactlyOnce(v, n), missing: v.missing, p50: v.p50, p99: v.p99,
})

const main = async () => {
  console.log(`bench:e2e run ${runId}: node ${process.version}, ${cpus().length} cpus, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  const lines = options.steady > 0 ? await steady(options) : await backlog(options)
  printTable(lines, options)
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  if (lines.some((l) => !l.exactlyOnce)) process.exitCode = 1
}

try {
  await main()
} finally {
  for (const db of databases) await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` }).catch(() => undefined)
  await deleteTopics(topics)
  await ch.close()
}
