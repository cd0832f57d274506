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
import { serverCpu, serverCpuSince, serverPids, type ServerCpu } from './server-cpu.js'
import { describeFloor, floorInChild, type Floor } from '../floor.js'
import { execSync } from 'node:child_process'

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

/** `<short commit>` of a checkout, `+` when its work tree has changes. */
const commitOf = (dir: string): string => {
  const head = execSync('git rev-parse --short HEAD', { cwd: dir, encoding: 'utf8' }).trim()
  const dirty = execSync('git status --porcelain --untracked-files=no', { cwd: dir, encoding: 'utf8' }).trim() !== ''
  return `${head}${dirty ? '+' : ''}`
}

const runners = (o: BenchOptions): Runner[] => {
  const list: Runner[] = []
  const service = (client: 'kafkajs' | 'confluent', label: string, extraEnv: Record<string, string> = {}, repo?: string): Runner => ({
    label,
    start: async (topic, suffix) => {
      const db = `bench_${runId}_${suffix}`
      databases.push(db)
      const logFile = o.logDir ? `${o.logDir}/${suffix}.log` : undefined
      const profileDir = o.profileDir ? `${o.profileDir}/${suffix}` : undefined
      const run = await startService({ client, db, topic, group: `bench-${runId}-${suffix}`, extraEnv, profileDir, logFile, repo })
      topics.push(...run.createdTopics)
      return run
    },
  })
  const name = (c: 'kafkajs' | 'confluent') => (c === 'confluent' ? 'librdkafka' : c)
  // Paired lines: the other checkouts' runs right before this one's, client by client.
  const paired = (c: 'kafkajs' | 'confluent', label: string, extraEnv: Record<string, string> = {}): Runner[] =>
    o.against.length > 0
      ? [...o.against.map((dir) => service(c, `${label} @ ${commitOf(dir)}`, extraEnv, dir)), service(c, `${label} @ ${commitOf('.')}`, extraEnv)]
      : [service(c, label, extraEnv)]
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
  for (const c of clients) list.push(...paired(c, `npm start, ${name(c)}`))
  for (const rows of o.bigBatch)
    for (const c of clients) list.push(...paired(c, `npm start, ${name(c)}, batch ${rows}`, { DEV_STATS_BATCH_MAX_ROWS: String(rows) }))
  return list
}

/** The floor measured after each contender too: it moved 0.99–2.42 µs within one run here; the lowest is the run's floor. */
const floors: Floor[] = []

const suffixOf = (label: string, round: number) => `${label.replace(/[^a-z0-9]+/gi, '_').toLowerCase().slice(0, 40)}${round > 0 ? `_r${round + 1}` : ''}`
const pids = serverPids()

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
  for (let round = 0; round < o.rounds; round++)
    for (const r of runners(o)) {
      const before = serverCpu(pids)
      const run = await r.start(topic, suffixOf(r.label, round))
      const ready = await run.ready
      const doneAt = await waitForRows(run.table, o.records)
      const servers = serverCpuSince(before, serverCpu(pids))
      const usage = await run.stop()
      floors.push(floorInChild())
      const verdict = await verify(ch, run.table, o.records)
      lines.push(line(r.label, o.records, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, servers, verdict))
      console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
    }
  return lines
}

const steady = async (o: BenchOptions): Promise<Line[]> => {
  const n = o.steady * o.seconds
  const lines: Line[] = []
  for (let round = 0; round < o.rounds; round++)
    for (const r of runners(o)) {
      const topic = `bench-${runId}-steady-${suffixOf(r.label, round)}`
      topics.push(topic)
      await createTopics([{ name: topic, partitions: PARTITIONS }])
      const run = await r.start(topic, `steady_${suffixOf(r.label, round)}`)
      const ready = await run.ready
      const before = serverCpu(pids)
      const p = await producer(KAFKA_BROKERS, topic)
      const sentAt = await produceSteadily(p, n, o.steady)
      await p.close()
      const doneAt = await waitForRows(run.table, n)
      // The broker's figure includes the producer's work here: the records arrive during the run.
      const servers = serverCpuSince(before, serverCpu(pids))
      const usage = await run.stop()
      floors.push(floorInChild())
      const verdict = await verify(ch, run.table, n, sentAt)
      lines.push(line(r.label, n, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, servers, verdict))
      console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
    }
  return lines
}

const line = (label: string, n: number, seconds: number, startup: number, usage: ProcessUsage | undefined, servers: ServerCpu, v: Verdict): Line => ({
  label, n, seconds, startup, rssMb: usage?.peakMb, cpuSeconds: usage?.cpuSeconds, mainThreadCpuSeconds: usage?.mainThreadCpuSeconds, clickhouseCpuSeconds: servers.clickhouse, kafkaCpuSeconds: servers.kafka,
  rows: v.rows, exactlyOnce: exactlyOnce(v, n), missing: v.missing, p50: v.p50, p99: v.p99,
})

const main = async () => {
  console.log(`bench:e2e run ${runId}: node ${process.version}, ${cpus().length} cpus, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  console.log(`servers: ClickHouse pid ${pids.clickhouse ?? '(not local)'}, Kafka broker pid ${pids.kafka ?? '(not local)'}`)
  // Before, between and after the contenders: the lowest is the run's floor.
  const first = floorInChild()
  console.log(describeFloor(first))
  floors.push(first)
  const lines = options.steady > 0 ? await steady(options) : await backlog(options)
  const lowest = floors.reduce((a, b) => (b.usPerRecord < a.usPerRecord ? b : a))
  console.log(`${describeFloor(lowest)}; the lowest of ${floors.length} measured before and after each contender: ${floors.map((f) => f.usPerRecord.toFixed(2)).join(' ')}`)
  printTable(lines, options, lowest)
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
