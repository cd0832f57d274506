// npm run bench:e2e: ClickHouse's own Kafka engine vs the service (kafkajs, librdkafka) on the
// real servers, side by side in one run. See docs/performance.md, "Throughput".
import { cpus, loadavg } from 'node:os'
import { parseOptions, type BenchOptions, type Contender } from './options.js'
import { clickhouse, CLICKHOUSE_URL, createTopics, deleteTopics, KAFKA_BROKERS, partsRowCount, rowCount, sleep } from './infra.js'
import { producer, produceSteadily, runId } from './records.js'
import { startClickHouseEngine } from './clickhouse-engine.js'
import { startService } from './service.js'
import { exactlyOnce, verify, type Verdict } from './verify.js'
import { printHistoryTable, printTable, type Line } from './table.js'
import type { ProcessUsage } from './process-usage.js'
import { clickhouseCell, serverCpu, serverCpuSince, serverPids, type ServerCpu } from './server-cpu.js'
import { describeFloor, floorInChild, type Floor } from '../floor.js'
import { execSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { attachHistory, dropTemplates, historyTemplates, type HistoryTemplate } from './history.js'
import { allTopicsOf, factLatencies, produceAllTopics, settledWithin, shortfall, waitForAll, watchParts } from './all-topics.js'
import { describeReads, readerEnv, startReader } from './reads-during.js'

const PARTITIONS = 3
const options = parseOptions(process.argv.slice(2))
const ch = clickhouse()
const topics: string[] = []
const databases: string[] = []
/** With a store history the table holds rows before the run: counted from system.parts (no scan), this run's on top. */
const count = (table: string) => (options.history.length > 0 ? partsRowCount(ch, table) : rowCount(ch, table))

/** Polls the row count until `n` rows are there; fails after 120 s without progress. */
const waitForRows = async (table: string, n: number): Promise<number> => {
  let last = -1
  let progressAt = Date.now()
  for (;;) {
    const rows = await count(table)
    if (rows >= n) return performance.now()
    if (rows > last) [last, progressAt] = [rows, Date.now()]
    if (Date.now() - progressAt > 120_000) throw new Error(`${table}: stuck at ${rows} of ${n} rows for 120 s`)
    await sleep(250)
  }
}

interface Runner {
  readonly label: string
  /** Before the CPU window: the database (migrations, a store history's parts); returns the rows its table holds already. */
  prepare(suffix: string): Promise<number>
  start(topic: string, suffix: string): Promise<{ table: string; startedAt: number; ready: Promise<number>; httpPort?: number; stop(): Promise<ProcessUsage | undefined> }>
}

/** `<short commit>` of a checkout, `+` when its work tree has changes. */
const commitOf = (dir: string): string => {
  const head = execSync('git rev-parse --short HEAD', { cwd: dir, encoding: 'utf8' }).trim()
  const dirty = execSync('git status --porcelain --untracked-files=no', { cwd: dir, encoding: 'utf8' }).trim() !== ''
  return `${head}${dirty ? '+' : ''}`
}

/** A store history size of this run: its label suffix and the template its databases get the parts of (none: empty). */
interface History {
  readonly scale: number
  readonly suffix: string
  readonly template: HistoryTemplate | undefined
}

const runners = (o: BenchOptions, history: History, first: boolean): Runner[] => {
  const list: Runner[] = []
  const service = (client: 'kafkajs' | 'confluent', label: string, extraEnv: Record<string, string> = {}, repo?: string): Runner => ({
    label: `${label}${history.suffix}`,
    prepare: async (suffix) => {
      const db = `bench_${runId}_${suffix}`
      databases.push(db)
      const session = serverSession({ url: CLICKHOUSE_URL, user: process.env.DEV_STATS_CLICKHOUSE_USER ?? 'default', password: process.env.DEV_STATS_CLICKHOUSE_PASSWORD ?? '', database: db })
      try {
        await migrate(session)
      } finally {
        await session.close()
      }
      if (!history.template) return 0
      const partitions = await attachHistory(history.template, db)
      const rows = await count(`${db}.session_facts`)
      console.log(`  ${db}: ${partitions} partitions of ${history.template.database} attached (${rows.toLocaleString('en')} session facts)`)
      return rows
    },
    start: async (topic, suffix) => {
      const db = `bench_${runId}_${suffix}`
      const logFile = o.logDir ? `${o.logDir}/${suffix}.log` : undefined
      const profileDir = o.profileDir ? `${o.profileDir}/${suffix}` : undefined
      const run = await startService({ client, db, topic, group: `bench-${runId}-${suffix}`, extraEnv: { ...(o.reads > 0 ? readerEnv() : {}), ...extraEnv }, profileDir, logFile, repo })
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
  // The engine has a table of its own, no store: it runs once, with the first history size.
  if (wanted('engine') && first)
    list.push({
      label: 'ClickHouse Kafka engine + MV',
      prepare: async () => 0,
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

/** The history sizes of this run (one without a pre-load when --history is not given). */
const histories = async (o: BenchOptions): Promise<{ list: History[]; templates: Map<number, HistoryTemplate> }> => {
  if (o.history.length === 0) return { list: [{ scale: 0, suffix: '', template: undefined }], templates: new Map() }
  const templates = await historyTemplates(o.history, runId, (line) => console.log(line))
  return { list: o.history.map((scale) => ({ scale, suffix: `, history ${scale}×`, template: templates.get(scale) })), templates }
}

const backlog = async (o: BenchOptions, sizes: readonly History[]): Promise<Line[]> => {
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
    for (const [h, history] of sizes.entries())
    for (const r of runners(o, history, h === 0)) {
      const baseline = await r.prepare(suffixOf(r.label, round))
      const before = serverCpu(pids)
      const run = await r.start(topic, suffixOf(r.label, round))
      const ready = await run.ready
      const reader = o.reads > 0 && run.httpPort !== undefined ? await startReader(run.httpPort, o.reads) : undefined
      const doneAt = await waitForRows(run.table, baseline + o.records)
      const servers = serverCpuSince(before, serverCpu(pids))
      if (reader) console.log(`  ${r.label}, during the catch-up: ${describeReads(await reader.stop())}`)
      const usage = await run.stop()
      floors.push(floorInChild())
      const verdict = await verify(ch, run.table, o.records, undefined, baseline > 0)
      lines.push(line(r.label, o.records, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, servers, verdict))
      console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
    }
  return lines
}

const steady = async (o: BenchOptions, sizes: readonly History[]): Promise<Line[]> => {
  const n = o.steady * o.seconds
  const lines: Line[] = []
  for (let round = 0; round < o.rounds; round++)
    for (const [h, history] of sizes.entries())
    for (const r of runners(o, history, h === 0)) {
      const topic = `bench-${runId}-steady-${suffixOf(r.label, round)}`
      topics.push(topic)
      await createTopics([{ name: topic, partitions: PARTITIONS }])
      const baseline = await r.prepare(`steady_${suffixOf(r.label, round)}`)
      const run = await r.start(topic, `steady_${suffixOf(r.label, round)}`)
      const ready = await run.ready
      const before = serverCpu(pids)
      const p = await producer(KAFKA_BROKERS, topic)
      const sentAt = await produceSteadily(p, n, o.steady)
      await p.close()
      const doneAt = await waitForRows(run.table, baseline + n)
      // The broker's figure includes the producer's work here: the records arrive during the run.
      const servers = serverCpuSince(before, serverCpu(pids))
      const usage = await run.stop()
      floors.push(floorInChild())
      const verdict = await verify(ch, run.table, n, sentAt, baseline > 0)
      lines.push(line(r.label, n, (doneAt - run.startedAt) / 1000, (ready - run.startedAt) / 1000, usage, servers, verdict))
      console.log(`  ${r.label}: ${JSON.stringify(lines.at(-1))}`)
    }
  return lines
}

/** --all-topics: every service line over a backlog on all 16 topics; what ClickHouse's parts did meanwhile. */
/** The service lines of an --all-topics run, in order: round, client, worker count, checkout (the others' before this one's). */
const allTopicsLines = (o: BenchOptions, mode: 'all' | 'steady') => {
  const lines: { client: 'kafkajs' | 'confluent'; dir: string; label: string; suffix: string; workers: number }[] = []
  const clients = (['kafkajs', 'confluent'] as const).filter((c) => o.only.includes(c))
  for (let round = 0; round < o.rounds; round++)
    for (const client of clients)
      for (const workers of o.workers)
        for (const [i, dir] of [...o.against, '.'].entries()) {
          const label = `npm start${workers > 1 ? ` --workers ${workers}` : ''}, ${client === 'confluent' ? 'librdkafka' : client} @ ${commitOf(dir)}`
          // the checkout's place in the pairing too: two checkouts of one commit get databases and groups of their own
          lines.push({ client, dir, label, suffix: suffixOf(`${mode} ${i} ${label}`, round), workers })
        }
  return lines
}

/** A line's database dropped once it is measured: its parts' merges would otherwise run on into the next lines' ClickHouse CPU. */
const dropMeasured = async (db: string): Promise<void> => {
  await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` })
  databases.splice(databases.indexOf(db), 1)
}

/** Starts one line's service on `byKey`'s topics with a database of its own; the servers' CPU counted from here. */
const startAllTopicsService = async (o: BenchOptions, line: { client: 'kafkajs' | 'confluent'; dir: string; suffix: string; workers: number }, byKey: Record<string, string>) => {
  const { client, dir, suffix, workers } = line
  const db = `bench_${runId}_${suffix}`
  databases.push(db)
  const before = serverCpu(pids)
  const logFile = o.logDir ? `${o.logDir}/${suffix}.log` : undefined
  const profileDir = o.profileDir ? `${o.profileDir}/${suffix}` : undefined
  const run = await startService({ client, db, topic: byKey['SESSION_ENDED'] as string, topics: byKey, group: `bench-${runId}-${suffix}`, extraEnv: { DEV_STATS_FUNNEL_ENABLED: 'true' }, profileDir, logFile, repo: dir === '.' ? undefined : dir, workers })
  topics.push(...run.createdTopics)
  await run.ready
  return { db, run, before }
}

/**
 * --all-topics --steady RATE --seconds S: each service line consumes a fresh set of the 16 topics
 * while RATE records a second are produced to them in the soak's shares, for S seconds; the table
 * gives each fact's send-to-stored time (p50, p99 over the session and view facts).
 */
const allTopicsSteady = async (o: BenchOptions): Promise<void> => {
  const n = o.steady * o.seconds
  const rows: string[] = []
  for (const service of allTopicsLines(o, 'steady')) {
    const { label, suffix } = service
    const byKey = allTopicsOf(`${runId}-${suffix.replace(/_/g, '-')}`)
    topics.push(...Object.values(byKey))
    await createTopics(Object.values(byKey).map((name) => ({ name, partitions: PARTITIONS })))
    const { db, run, before } = await startAllTopicsService(o, service, byKey)
    // the service's own histogram over the steady window: scraped 10 s into the run and 5 s before its end (runs of 20 s and more)
    const scrape = () => fetch(`http://127.0.0.1:${run.httpPort}/metrics`).then((r) => r.text())
    const scrapes = o.seconds >= 20 ? [10_000, o.seconds * 1000 - 5000].map((ms) => sleep(ms).then(scrape)) : []
    const expected = await produceAllTopics(KAFKA_BROKERS, byKey, n, o.steady)
    const [start, end] = await Promise.all(scrapes)
    const window = start !== undefined && end !== undefined ? settledWithin(start, end, 2) : undefined
    if (o.logDir && start !== undefined && end !== undefined) [start, end].forEach((m, i) => writeFileSync(`${o.logDir}/${suffix}.window-${i === 0 ? 'start' : 'end'}.metrics`, m))
    await waitForAll(ch, db, expected)
    const servers = serverCpuSince(before, serverCpu(pids))
    const usage = await run.stop()
    const latency = await factLatencies(ch, db, expected)
    const once = Object.values(await shortfall(ch, db, expected)).every((x) => x === 0)
    await dropMeasured(db)
    rows.push(`| ${label} | ${latency.n.toLocaleString('en')} | ${latency.p50.toFixed(1)} | ${latency.p99.toFixed(1)} | ${latency.p99After10s.toFixed(1)} | ${latency.p99Steady.toFixed(1)} | ${latency.p99SessionsSteady.toFixed(1)} | ${window ? `${((100 * window.within) / window.total).toFixed(2)} % of ${window.total.toLocaleString('en')}` : '–'} | ${[usage?.cpuSeconds?.toFixed(1) ?? '–', clickhouseCell(servers), servers.kafka?.toFixed(1) ?? '–'].join(' / ')} | ${usage?.peakMb.toFixed(0) ?? '–'} | ${once ? 'yes' : 'no'} |`)
    console.log(`  ${rows.at(-1)}`)
    if (!once) process.exitCode = 1
  }
  console.log(`\n${o.steady.toLocaleString('en')} records/s on all 16 topics for ${o.seconds} s (the soak's shares, clean), ${PARTITIONS} partitions each; send-to-stored of the session and view facts\n`)
  console.log('| consumer | facts timed | p50 s | p99 s | p99 s after the first 10 s | p99 s of the steady window (after the first 10 s, before the last 5 s) | the same of session facts (no dimension) | settled within 2 s in the steady window (arrival histogram of the service) | CPU s: service / ClickHouse (of it in the kernel) / Kafka | peak RSS MB | every record once |\n|---|---|---|---|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(r)
}

const allTopics = async (o: BenchOptions): Promise<void> => {
  if (o.steady > 0) return allTopicsSteady(o)
  const byKey = allTopicsOf(runId)
  topics.push(...Object.values(byKey))
  await createTopics(Object.values(byKey).map((name) => ({ name, partitions: PARTITIONS })))
  const t0 = performance.now()
  const expected = await produceAllTopics(KAFKA_BROKERS, byKey, o.records)
  console.log(`produced ${o.records.toLocaleString('en')} records over ${Object.keys(byKey).length} topics in the soak's shares in ${((performance.now() - t0) / 1000).toFixed(1)} s`)
  const rows: string[] = []
  for (const service of allTopicsLines(o, 'all')) {
    const { label, suffix } = service
    const { db, run, before } = await startAllTopicsService(o, service, byKey)
    const parts = watchParts(ch, db)
    const doneAt = await waitForAll(ch, db, expected)
    const servers = serverCpuSince(before, serverCpu(pids))
    const metrics = await (await fetch(`http://127.0.0.1:${run.httpPort}/metrics`)).text()
    if (o.logDir) writeFileSync(`${o.logDir}/${suffix}.metrics`, metrics)
    const refusals = [...metrics.matchAll(/^dev_stats_store_too_many_parts_total\{[^}]*\} (\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0)
    const usage = await run.stop()
    const peaks = await parts.stop()
    floors.push(floorInChild())
    const short = await shortfall(ch, db, expected)
    await dropMeasured(db)
    const once = Object.values(short).every((n) => n === 0)
    const [peakTable, peak] = [...peaks].reduce((a, b) => (b[1] > a[1] ? b : a), ['–', 0])
    const cpu = [usage?.cpuSeconds, servers.clickhouse, servers.kafka]
    const us = cpu.every((x) => x !== undefined) ? ((cpu as number[]).reduce((a, b) => a + b, 0) * 1e6) / o.records : undefined
    rows.push(`| ${label} | ${((doneAt - run.startedAt) / 1000).toFixed(1)} | ${[usage?.cpuSeconds?.toFixed(1) ?? '–', clickhouseCell(servers), servers.kafka?.toFixed(1) ?? '–'].join(' / ')} | ${us?.toFixed(1) ?? '–'} | ${usage?.peakMb.toFixed(0) ?? '–'} | ${peak} (${peakTable}) | ${refusals} | ${once ? 'yes' : `no: ${JSON.stringify(short)}`} |`)
    console.log(`  ${label}: ${rows.at(-1)}; peak active parts per table ${JSON.stringify(Object.fromEntries(peaks))}`)
    if (!once) process.exitCode = 1
  }
  const lowest = floors.reduce((a, b) => (b.usPerRecord < a.usPerRecord ? b : a))
  console.log(`\n${describeFloor(lowest)}\n\nbacklog of ${o.records.toLocaleString('en')} records on all 16 topics (the soak's shares, clean), ${PARTITIONS} partitions each\n`)
  console.log('| consumer | time s | CPU s: service / ClickHouse (of it in the kernel) / Kafka | all three µs/record | peak RSS MB | peak active parts of a partition (table) | code 252 refusals | every record once |\n|---|---|---|---|---|---|---|---|')
  for (const r of rows) console.log(r)
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
  const sizes = await histories(options)
  templates = sizes.templates
  console.log(`load average before the contenders ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  if (options.allTopics) return allTopics(options)
  const lines = options.steady > 0 ? await steady(options, sizes.list) : await backlog(options, sizes.list)
  const lowest = floors.reduce((a, b) => (b.usPerRecord < a.usPerRecord ? b : a))
  console.log(`${describeFloor(lowest)}; the lowest of ${floors.length} measured before and after each contender: ${floors.map((f) => f.usPerRecord.toFixed(2)).join(' ')}`)
  printTable(lines, options, lowest)
  if (options.history.length > 0) printHistoryTable(lines, options)
  console.log(`load average at the end ${loadavg().map((l) => l.toFixed(2)).join(' ')}`)
  if (lines.some((l) => !l.exactlyOnce)) process.exitCode = 1
}

let templates = new Map<number, HistoryTemplate>()

try {
  await main()
} finally {
  await dropTemplates(templates, (line) => console.log(line))
  for (const db of databases) await ch.command({ query: `DROP DATABASE IF EXISTS ${db}` }).catch(() => undefined)
  await deleteTopics(topics)
  await ch.close()
}
