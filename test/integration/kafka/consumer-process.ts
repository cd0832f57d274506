// A consumer service in its own process, for the crash tests: the session-ended engine on a real
// Kafka broker (DEV_STATS_BROKER=kafkajs|confluent) writing to a durable store, killable at will.
//
//   TOPIC, GROUP            source topic and consumer group (DLQ and retry topics by spec §2 defaults)
//   DEV_STATS_STORE=clickhouse (+ DEV_STATS_CLICKHOUSE_*)  the real store, as the container binds it
//   STORE_FILE              otherwise: FileFactStore path (JSON lines, fsync'ed)
//   KILL_AFTER_INSERT=1     SIGKILL itself right after the store confirmed an insert, before the commit
//   MAX_BATCH_ROWS          engine flush size (default 200)
//   STORE_DELAY_MS          a slow store: wait this long before each insert (default 0)
//   FLUSHES_IN_FLIGHT       sealed batches inserting at once (engine default otherwise)
//   KILL_WITH_INSERTS_IN_FLIGHT=N  SIGKILL itself once N inserts are unconfirmed at once, after N
//                           were confirmed; a random part of STORE_DELAY_MS comes before and one
//                           after each insert, so some of the killed ones are stored, unconfirmed
// Prints "ready" once its consumer joined the group; SIGTERM stops gracefully.
import { Registry } from 'prom-client'
import { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { systemClock } from '../../../src/adapters/clock/system-clock.js'
import { InMemoryDimensionReader } from '../../../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { OtelTracer } from '../../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../../src/adapters/observability/prom-metrics.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import { loadConfig } from '../../../src/composition/config.js'
import { storeFor } from '../../../src/composition/store.factory.js'
import { FileFactStore } from '../../support/file-fact-store.js'
import { kafkaBroker, type KafkaAdapter } from '../../support/kafka.js'
import { RecordingLogger } from '../../support/recording-logger.js'

const env = (name: string): string => {
  const v = process.env[name]
  if (!v) throw new Error(`consumer-process: ${name} is required`)
  return v
}

const adapter = env('DEV_STATS_BROKER') as KafkaAdapter
const handler = sessionEndedHandler(env('TOPIC'), env('GROUP'))
const config = loadConfig(process.env)
const store: FactStore =
  config.store === 'clickhouse' ? storeFor(config, () => new InMemoryTables()).factStore : new FileFactStore(env('STORE_FILE'))
const killAfterInsert = process.env.KILL_AFTER_INSERT === '1'
const storeDelayMs = Number(process.env.STORE_DELAY_MS ?? 0)
const killWithInFlight = Number(process.env.KILL_WITH_INSERTS_IN_FLIGHT ?? 0)
const inserts = { inFlight: 0, confirmed: 0 }
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const broker = kafkaBroker(adapter)
const consumer = broker.consumer(handler.groupId)
const logger = new RecordingLogger()

const appendThenMaybeDie = async (rows: Parameters<FactStore['append']>[0], at: number): Promise<void> => {
  inserts.inFlight++
  if (inserts.inFlight >= killWithInFlight && inserts.confirmed >= killWithInFlight) {
    process.stdout.write(`killing myself with ${inserts.inFlight} inserts in flight\n`)
    process.kill(process.pid, 'SIGKILL')
  }
  await sleep(Math.random() * storeDelayMs)
  await store.append(rows, at)
  await sleep(Math.random() * storeDelayMs)
  inserts.inFlight--
  inserts.confirmed++
}

const engine = new ConsumerEngine({
  handler,
  topics: defaultTopics(handler.topic, handler.groupId),
  consumer,
  producer: broker.producer(),
  store: {
    append: async (rows, at) => {
      if (killWithInFlight > 0) return appendThenMaybeDie(rows, at)
      if (storeDelayMs > 0) await sleep(storeDelayMs)
      await store.append(rows, at)
      if (killAfterInsert) {
        process.stdout.write(`killing myself after an insert of ${rows.length} rows, before its commit\n`)
        process.kill(process.pid, 'SIGKILL')
      }
    },
  },
  dimensions: new InMemoryDimensionReader(new InMemoryTables()),
  clock: systemClock,
  logger,
  metrics: new PromMetrics(new Registry()),
  tracer: new OtelTracer(),
  config: {
    maxBatchRows: Number(process.env.MAX_BATCH_ROWS ?? 200),
    ...(process.env.FLUSHES_IN_FLIGHT ? { flushesInFlight: Number(process.env.FLUSHES_IN_FLIGHT) } : {}),
    flushIntervalMs: 100,
    sinkBackoff: { initialMs: 50, maxMs: 500 },
    parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } },
  },
})

process.on('SIGTERM', () => {
  void engine.stop().then(
    () => broker.close(),
  ).finally(() => {
    process.stdout.write(`stopped: ${JSON.stringify({ rows: engine.stats.rowsIngested, deadLetters: [...engine.stats.deadLetters] })}\n`)
    process.exit(0)
  })
})

await engine.start()
process.stdout.write('ready\n')
setInterval(() => {
  for (const l of logger.lines.splice(0)) if (l.level === 'error' || l.level === 'warn') process.stderr.write(`${l.level}: ${l.message} ${JSON.stringify(l.fields)}\n`)
}, 500)
