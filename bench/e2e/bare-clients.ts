// What the Kafka clients cost on their own, before any work of ours: each mode consumes the same
// backlog of bench:e2e's session-ended records in a process of its own, with npm start's node
// flags, and reports CPU µs per record from its first record to its last (connect and join not
// counted), beside the floor of this run:
//   npm run bench:clients [-- --records N] [--rounds N]
// Each round runs every mode once, in turn (default 3 rounds); a line shows the median round.
// Modes: kafkajs as shipped; kafkajs with this adapter's record decoder and BrokerRecord
// conversion, header values as Buffers (a host's default) and as text (npm start's); librdkafka's
// consume(n) as the adapter calls it (n = 100, 1000, 5000), with and without the adapter's
// conversion, and with jemalloc preloaded where the system has it (the binding's Buffer per value,
// key and header is a malloc and a free each); the KafkaJS-compatible layer of the same client (it
// does not fit npm start's 160 MB heap: it runs with 1 GB).
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import kafkajs from 'kafkajs'
import { CONFLUENT_CONSUME_MAX } from '../../src/adapters/kafka/librdkafka/fetch-settings.js'
import { floorInChild } from '../floor.js'
import { createTopics, deleteTopics, KAFKA_BROKERS } from './infra.js'
import { producer, runId } from './records.js'
import { parseStartLine, startScript } from './start-line.js'

// The adapter's and the jemalloc line take what the adapter takes per consume (CONFLUENT_CONSUME_MAX).
const ADAPTER_TAKE = `librdkafka consume(${CONFLUENT_CONSUME_MAX})` as const
const MODES = [
  'kafkajs', 'kafkajs+adapter', 'kafkajs+adapter, header values as text', 'librdkafka consume(100)', 'librdkafka consume(1000)', 'librdkafka consume(5000)',
  `${ADAPTER_TAKE}+adapter`, `${ADAPTER_TAKE}, jemalloc`, 'librdkafka KafkaJS API',
] as const
type Mode = (typeof MODES)[number]

const JEMALLOC = '/usr/lib/x86_64-linux-gnu/libjemalloc.so.2'

interface ChildResult {
  readonly records: number
  readonly cpuUs: number
  readonly calls: number
}

const PARTITIONS = 3

/** npm start's line: its variables (UV_THREADPOOL_SIZE) and node flags (the GC settings), without the entry point. */
const service = (() => {
  const { env, args } = parseStartLine(startScript(fileURLToPath(new URL('../..', import.meta.url))))
  return { env, flags: args.filter((a) => a.startsWith('--')) }
})()

const child = async (mode: Mode, topic: string, n: number, round: number): Promise<ChildResult> => {
  const group = `bench-bare-${runId}-${round}-${MODES.indexOf(mode)}`
  let records = 0
  let calls = 0
  let started: NodeJS.CpuUsage | undefined
  let done: () => void = () => undefined
  const all = new Promise<void>((r) => (done = r))
  const seen = (count: number) => {
    started ??= process.cpuUsage()
    calls++
    records += count
    if (records >= n) done()
  }
  let stop: () => Promise<void>
  if (mode.startsWith('kafkajs')) {
    const adapter = mode.startsWith('kafkajs+adapter')
    if (adapter) await import('../../src/adapters/kafka/kafkajs/kafkajs-broker.js') // installs its decoder
    if (mode.endsWith('as text')) (await import('../../src/adapters/kafka/kafkajs/kafkajs-record-decoder.js')).decodeKafkaJsHeaderValuesAsText()
    const { toBrokerRecord } = await import('../../src/adapters/kafka/shared/kafka-records.js')
    const kafka = new kafkajs.Kafka({ brokers: [...KAFKA_BROKERS], logLevel: kafkajs.logLevel.NOTHING })
    const consumer = kafka.consumer({ groupId: group, maxWaitTimeInMs: 2000 })
    await consumer.connect()
    await consumer.subscribe({ topics: [topic], fromBeginning: true })
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        if (adapter) for (const m of batch.messages) toBrokerRecord(batch.topic, batch.partition, m)
        seen(batch.messages.length)
      },
    })
    stop = () => consumer.disconnect()
  } else if (mode === 'librdkafka KafkaJS API') {
    const { KafkaJS } = (await import('../../src/adapters/kafka/librdkafka/confluent-client.js')).confluentClient()
    const kafka = new KafkaJS.Kafka({ kafkaJS: { brokers: [...KAFKA_BROKERS], logLevel: KafkaJS.logLevel.NOTHING } })
    const consumer = kafka.consumer({ kafkaJS: { groupId: group, fromBeginning: true, autoCommit: false } })
    await consumer.connect()
    await consumer.subscribe({ topics: [topic] })
    await consumer.run({ eachBatch: async ({ batch }) => seen(batch.messages.length) })
    stop = () => consumer.disconnect()
  } else {
    const { nativeClient } = await import('../../src/adapters/kafka/librdkafka/confluent-native-client.js')
    const { ASSIGN } = await import('../../src/adapters/kafka/librdkafka/confluent-native-consumer.js')
    const { batchesOf } = await import('../../src/adapters/kafka/librdkafka/confluent-native-records.js')
    const max = Number(/consume\((\d+)\)/.exec(mode)?.[1])
    const adapter = mode.includes('+adapter')
    let stopping = false
    let wake: () => void = () => undefined
    const client = nativeClient({ brokers: [...KAFKA_BROKERS], clientId: 'bench-bare' }, group, {
      rebalance: (code, partitions) => (code === ASSIGN ? client.assign(partitions) : client.unassign()),
      nonEmpty: () => wake(),
      error: () => undefined,
    })
    await client.connect(topic)
    client.subscribe([topic])
    const loop = (async () => {
      while (!stopping) {
        const messages = await client.consume(max)
        if (messages.length === 0) {
          await new Promise<void>((r) => {
            wake = r
            setTimeout(r, 100)
          })
          continue
        }
        if (adapter) batchesOf(messages)
        seen(messages.length)
      }
    })()
    stop = async () => {
      stopping = true
      await loop
      await client.disconnect()
    }
  }
  await all
  const used = process.cpuUsage(started)
  await stop()
  return { records, cpuUs: used.user + used.system, calls }
}

/** One mode in a process of its own; a mode that cannot run (no jemalloc, out of memory) says why instead of a figure. */
const runChild = (mode: Mode, topic: string, n: number, round: number): ChildResult | string => {
  const env: NodeJS.ProcessEnv = { ...process.env, ...service.env }
  let flags = service.flags
  if (mode.endsWith('jemalloc')) {
    if (!existsSync(JEMALLOC)) return `not run: no ${JEMALLOC}`
    env.LD_PRELOAD = JEMALLOC
  }
  if (mode === 'librdkafka KafkaJS API') flags = [...flags.filter((f) => !f.startsWith('--max-old-space-size')), '--max-old-space-size=1024']
  const out = spawnSync(process.execPath, [...flags, '--import', 'tsx', fileURLToPath(import.meta.url), '--child', mode, topic, String(n), String(round)], { encoding: 'utf8', env })
  if (out.status === 0) return JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as ChildResult
  const fatal = /FATAL ERROR: [^\n]*/.exec(out.stderr)?.[0]
  return `failed: ${fatal ?? out.stderr.trim().split('\n').slice(-3).join(' ')}`.slice(0, 200)
}

const main = async (): Promise<void> => {
  const args = process.argv.slice(2)
  if (args[0] === '--child') {
    const result = await child(args[1] as Mode, args[2] as string, Number(args[3]), Number(args[4]))
    console.log(JSON.stringify(result))
    process.exit(0)
  }
  const flag = (name: string, fallback: number): number => {
    const at = args.indexOf(`--${name}`)
    const v = at === -1 ? fallback : Number(args[at + 1])
    if (!Number.isInteger(v) || v < 1) throw new Error('usage: npm run bench:clients [-- --records N] [--rounds N]')
    return v
  }
  const n = flag('records', 200_000)
  const rounds = flag('rounds', 3)
  const topic = `bench-bare-${runId}`
  await createTopics([{ name: topic, partitions: PARTITIONS }])
  const floors = [floorInChild().usPerRecord]
  try {
    const p = await producer(KAFKA_BROKERS, topic)
    await p.send(0, n)
    await p.close()
    console.log(`bench:clients run ${runId}: ${n.toLocaleString('en-US')} session-ended records with CloudEvents headers, ${PARTITIONS} partitions; node flags ${service.flags.join(' ')}`)
    const results = new Map<Mode, (ChildResult | string)[]>(MODES.map((m) => [m, []]))
    for (let round = 1; round <= rounds; round++) {
      for (const mode of MODES) {
        const result = runChild(mode, topic, n, round)
        results.get(mode)?.push(result)
        console.log(`  round ${round}, ${mode}: ${JSON.stringify(result)}`)
      }
    }
    floors.push(floorInChild().usPerRecord)
    const floor = Math.min(...floors)
    console.log(`\nfloor ${floor.toFixed(2)} µs CPU per record (UTF-8 decode + JSON.parse, the lower of ${floors.map((f) => f.toFixed(2)).join(' and ')})\n`)
    console.log('| client, doing nothing with the records | CPU µs/record, median (each round) | × floor | records per call |')
    console.log('|---|---|---|---|')
    for (const [mode, all] of results) {
      const measured = all.filter((r): r is ChildResult => typeof r !== 'string')
      if (measured.length === 0) {
        console.log(`| ${mode} | ${String(all[0])} | – | – |`)
        continue
      }
      const each = measured.map((r) => r.cpuUs / r.records)
      const median = [...each].sort((a, b) => a - b)[Math.floor((each.length - 1) / 2)] as number
      const calls = measured.reduce((sum, r) => sum + r.records / r.calls, 0) / measured.length
      console.log(`| ${mode} | ${median.toFixed(1)} (${each.map((u) => u.toFixed(1)).join(', ')}) | ${(median / floor).toFixed(1)}× | ${Math.round(calls).toLocaleString('en-US')} |`)
    }
  } finally {
    await deleteTopics([topic])
  }
}

await main()
