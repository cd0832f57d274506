import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { Registry } from 'prom-client'
import { ConsumerEngine } from '../src/application/engine/consumer-engine.js'
import { DEFAULT_ENGINE_CONFIG, defaultTopics } from '../src/application/engine/engine-config.js'
import { leadCreatedHandler } from '../src/application/handlers/lead-created.handler.js'
import type { BrokerConsumer, BrokerRecord, OutboundRecord } from '../src/application/ports/broker.port.js'
import { InMemoryBroker } from '../src/adapters/memory/in-memory-broker.js'
import { InMemoryDimensionReader } from '../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryTables } from '../src/adapters/memory/in-memory-tables.js'
import { OtelTracer } from '../src/adapters/observability/otel-tracer.js'
import { pino } from 'pino'
import { PinoLogger } from '../src/adapters/observability/pino-logger.js'
import { PromMetrics } from '../src/adapters/observability/prom-metrics.js'

// Heap with N parked copies on the retry topic, none due: with the bound, the engine holds about
// maxInMemory of them and pauses the retry topic; without it, all N. Each mode runs in its own
// process with --expose-gc. The broker's own log (the N records) is in the baseline, so the
// difference is what the engine holds; each delivered record gets its own copy of its bytes, as
// from a Kafka client's fetch.
const N = Number(process.env.BENCH_PARKED ?? 100_000)
const handler = leadCreatedHandler()
const retry = defaultTopics(handler.topic, handler.groupId).retry
const enc = new TextEncoder()
const now = Date.parse('2026-11-30T12:00:00Z')

const parked = (): OutboundRecord[] =>
  Array.from({ length: N }, (_, i) => ({
    topic: retry,
    key: enc.encode(String(i)),
    value: enc.encode(JSON.stringify({ LeadId: randomUUID(), OriginPropertyObjectId: randomUUID(), CreatedAt: '2026-11-30T09:00:00Z', Note: 'x'.repeat(200) })),
    headers: {
      ce_id: randomUUID(), ce_type: 'lead-created', ce_contractversion: '1', 'retry-attempt': '1',
      'retry-due-at': new Date(now + 3_600_000).toISOString(), 'retry-origin-topic': handler.topic, 'retry-origin-partition': '0', 'retry-origin-offset': String(i),
    },
  }))

const heapMb = (): number => {
  globalThis.gc?.()
  return process.memoryUsage().heapUsed / 1024 / 1024
}

/** The in-memory broker hands out its stored bytes; a Kafka client delivers fresh buffers. */
const copying = (c: BrokerConsumer): BrokerConsumer => ({
  run: (topics, cb) =>
    c.run(topics, {
      onBatch: (records) => cb.onBatch(records.map((r): BrokerRecord => ({ ...r, value: r.value && new Uint8Array(r.value), headers: { ...r.headers } }))),
      onRevoked: cb.onRevoked,
    }),
  commit: (o) => c.commit(o),
  pause: () => c.pause(),
  resume: () => c.resume(),
  pauseTopic: (t) => c.pauseTopic(t),
  resumeTopic: (t) => c.resumeTopic(t),
  stop: () => c.stop(),
})

const run = async (maxInMemory: number) => {
  const broker = new InMemoryBroker(500)
  broker.createTopic(handler.topic, 3)
  broker.createTopic(retry, 3)
  await broker.producer().publish(parked())
  const baseline = heapMb()
  const consumer = copying(broker.consumer(handler.groupId))
  const tables = new InMemoryTables()
  const engine = new ConsumerEngine({
    handler, topics: defaultTopics(handler.topic, handler.groupId), consumer, producer: broker.producer(),
    store: new InMemoryFactStore(tables), dimensions: new InMemoryDimensionReader(tables), clock: { now: () => now },
    logger: new PinoLogger(pino({ level: 'silent' })), metrics: new PromMetrics(new Registry()), tracer: new OtelTracer(),
    config: { ...DEFAULT_ENGINE_CONFIG, parking: { ...DEFAULT_ENGINE_CONFIG.parking, maxInMemory } },
  })
  await engine.start()
  let last = -1
  while (engine.parkedInMemory !== last) {
    last = engine.parkedInMemory
    await new Promise((r) => setTimeout(r, 300))
  }
  const held = heapMb()
  engine.abort()
  await consumer.stop()
  return { maxInMemory, parked: N, heldInMemory: last, heapBaselineMb: +baseline.toFixed(1), heapHeldMb: +held.toFixed(1), engineHeapMb: +(held - baseline).toFixed(1) }
}

const mode = process.argv[2]
if (mode) {
  console.log(JSON.stringify(await run(Number(mode))))
} else {
  if (!process.execArgv.includes('--expose-gc')) console.error('(run with node --expose-gc for exact heap numbers)')
  const self = fileURLToPath(import.meta.url)
  const bound = Number(process.env.DEV_STATS_PARKING_MAX_IN_MEMORY ?? DEFAULT_ENGINE_CONFIG.parking.maxInMemory)
  for (const m of [bound, N * 10]) {
    const out = spawnSync(process.execPath, [...process.execArgv, self, String(m)], { encoding: 'utf8' })
    if (out.status !== 0) throw new Error(`mode ${m} failed: ${out.stderr}`)
    const r = JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Awaited<ReturnType<typeof run>>
    console.log(`${m === bound ? 'bounded  ' : 'unbounded'} maxInMemory=${r.maxInMemory}: ${r.parked} parked, ${r.heldInMemory} held in memory, engine heap +${r.engineHeapMb} MB (baseline ${r.heapBaselineMb} MB with the broker log)`)
  }
}
