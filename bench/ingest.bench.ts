import { spawnSync } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { trace } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { Registry } from 'prom-client'
import * as consumerEngine from '../src/application/engine/consumer-engine.js'
import * as engineConfig from '../src/application/engine/engine-config.js'
import * as sessionEnded from '../src/application/handlers/session-ended.handler.js'
import type { OutboundRecord } from '../src/application/ports/broker.port.js'
import * as inMemoryBroker from '../src/adapters/memory/in-memory-broker.js'
import * as inMemoryDimensionReader from '../src/adapters/memory/in-memory-dimension-reader.js'
import * as inMemoryFactStore from '../src/adapters/memory/in-memory-fact-store.js'
import * as inMemoryTables from '../src/adapters/memory/in-memory-tables.js'
import * as otelTracer from '../src/adapters/observability/otel-tracer.js'
import * as pinoLogger from '../src/adapters/observability/pino-logger.js'
import * as promMetrics from '../src/adapters/observability/prom-metrics.js'
import { decodeEnvelope } from '../src/domain/envelope.js'
import { describeFloor, floorInChild } from './floor.js'

// Each mode runs in its own process so that its peak RSS is its own. Compare the ratios, not the
// absolute times: these machines are noisy.
const N = Number(process.env.BENCH_RECORDS ?? 100_000)
const handler = sessionEnded.sessionEndedHandler()
const enc = new TextEncoder()
const now = Date.now()

const records = (): OutboundRecord[] =>
  Array.from({ length: N }, (_, i) => ({
    topic: handler.topic,
    key: enc.encode(String(i)),
    value: enc.encode(JSON.stringify({
      SessionId: randomUUID(), AnonymousId: randomUUID(), UserId: i % 3 === 0 ? null : randomUUID(),
      CreatedAt: '2026-11-30T10:15:30.1234567+03:00', LastActivityAt: '2026-11-30T10:45:30.1234567+03:00', DurationSeconds: i % 3600,
    })),
    headers: { ce_id: randomUUID(), ce_type: 'session-ended', ce_contractversion: '1' },
  }))

/**
 * Header text as a client hands it over: decoded from the record's bytes. randomUUID's own string
 * is a rope that costs a flatten on first use, which no consumed record has. The floor reads only
 * the values, so its input stays exactly as it is.
 */
const withDecodedHeaders = (input: OutboundRecord[], traceparents = false): OutboundRecord[] => {
  const utf8 = new TextDecoder()
  const text = (v: string | undefined): string => utf8.decode(enc.encode(v))
  const hex = (n: number) => randomUUID().replaceAll('-', '').slice(0, n)
  for (const r of input as { headers: Readonly<Record<string, string>> }[]) {
    const h = r.headers
    r.headers = traceparents
      ? { ce_id: text(h['ce_id']), ce_type: text(h['ce_type']), ce_contractversion: text(h['ce_contractversion']), traceparent: text(`00-${hex(32)}-${hex(16)}-01`) }
      : { ce_id: text(h['ce_id']), ce_type: text(h['ce_type']), ce_contractversion: text(h['ce_contractversion']) }
  }
  return input
}

let sdk: boolean | undefined
const TRACED = 'engine, OTel SDK + traceparents'

/** A mode prepares its input untimed (e.g. the producer's side) and returns the timed run. */
type Mode = (input: OutboundRecord[]) => Promise<() => Promise<number>>

const modes: Record<string, Mode> = {
  /** The floor: UTF-8 decode + JSON.parse of every value, nothing else. */
  'bare JSON.parse': async (input) => async () => {
    const utf8 = new TextDecoder()
    let n = 0
    for (const r of input) if (JSON.parse(utf8.decode(r.value as Uint8Array))) n++
    return n
  },
  /** Envelope + payload decode (io-ts), poison rules and row mapping, no engine. */
  'decode+validate+map': async (input) => async () => {
    let n = 0
    for (const r of input) {
      const env = decodeEnvelope(r)
      if (env._tag === 'Right' && handler.interpret(env.right, now)._tag === 'Right') n++
    }
    return n
  },
  /**
   * The whole consumer side: in-memory broker, dedup, batching (1000 rows), in-memory store,
   * commits. Producing the records into the broker is the producer's work: it happens untimed.
   */
  'engine (in-memory broker + store)': async (input) => engineRun(input),
  /**
   * The same with a tracing SDK registered as a host does (provider, span processor, exporter:
   * in memory) and a producer's traceparent on every record: a span per batch, a link per record.
   */
  [TRACED]: async (input) => {
    sdk ??= trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(new InMemorySpanExporter())] }))
    return engineRun(input)
  },
}

/**
 * The whole consumer side: in-memory broker, dedup, batching (1000 rows), in-memory store,
 * commits. Producing the records into the broker is the producer's work: it happens untimed.
 */
const engineRun = async (input: OutboundRecord[]): Promise<() => Promise<number>> => {
  const { ConsumerEngine, DEFAULT_ENGINE_CONFIG, defaultTopics, sessionEndedHandler, InMemoryBroker, InMemoryDimensionReader, InMemoryFactStore, InMemoryTables, OtelTracer, PinoLogger, PromMetrics } =
    await engineModules()
  const handler = sessionEndedHandler()
  const broker = new InMemoryBroker(1000)
  broker.createTopic(handler.topic, 6)
  await broker.producer().publish(input)
  return async () => {
    const tables = new InMemoryTables()
    const consumer = broker.consumer(handler.groupId)
    const engine = new ConsumerEngine({
      handler, topics: defaultTopics(handler.topic, handler.groupId), consumer, producer: broker.producer(),
      store: new InMemoryFactStore(tables), dimensions: new InMemoryDimensionReader(tables), clock: { now: () => Date.now() },
      logger: PinoLogger.withLevel('silent'), metrics: new PromMetrics(new Registry()), tracer: new OtelTracer(), config: DEFAULT_ENGINE_CONFIG,
    })
    await engine.start()
    while (engine.stats.rowsIngested < input.length) {
      await new Promise((r) => setTimeout(r, 1))
      if (engine.stats.rowsIngested >= input.length - 1000) await engine.drain()
    }
    await engine.stop()
    return tables.size
  }
}

/**
 * The engine's modules: this checkout's, or with BENCH_ENGINE_SRC (what --against sets) those of
 * another checkout's src/, run by this same bench: the same input, timing and figures for both.
 */
const engineModules = async () => {
  const src = process.env.BENCH_ENGINE_SRC
  const load = <T>(local: T, path: string): Promise<T> => (src ? (import(pathToFileURL(join(src, path)).href) as Promise<T>) : Promise.resolve(local))
  return {
    ...(await load(consumerEngine, 'application/engine/consumer-engine.ts')),
    ...(await load(engineConfig, 'application/engine/engine-config.ts')),
    ...(await load(sessionEnded, 'application/handlers/session-ended.handler.ts')),
    ...(await load(inMemoryBroker, 'adapters/memory/in-memory-broker.ts')),
    ...(await load(inMemoryDimensionReader, 'adapters/memory/in-memory-dimension-reader.ts')),
    ...(await load(inMemoryFactStore, 'adapters/memory/in-memory-fact-store.ts')),
    ...(await load(inMemoryTables, 'adapters/memory/in-memory-tables.ts')),
    ...(await load(otelTracer, 'adapters/observability/otel-tracer.ts')),
    ...(await load(pinoLogger, 'adapters/observability/pino-logger.ts')),
    ...(await load(promMetrics, 'adapters/observability/prom-metrics.ts')),
  }
}

interface Result { readonly mode: string; readonly count: number; readonly perSecond: number; readonly cpuUsPerRecord: number; readonly peakMb: number; readonly inputMb: number }

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3)
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number

const ENGINE = 'engine (in-memory broker + store)'
/** --against CHECKOUT: that checkout's engine (its src/) runs in the same rounds (before/after a change, side by side). */
const againstAt = process.argv.indexOf('--against')
const against = againstAt > 0 ? process.argv[againstAt + 1] : undefined
const mode = process.argv[2]?.startsWith('--') ? undefined : process.argv[2]
if (mode) {
  const input = mode === 'bare JSON.parse' ? records() : withDecodedHeaders(records(), mode === TRACED)
  const baseRss = process.memoryUsage().rss
  const prepare = modes[mode] as Mode
  await (await prepare(input.slice(0, 5000)))() // warm-up
  const run = await prepare(input)
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const count = await run()
  const cpu = process.cpuUsage(cpu0)
  const seconds = (performance.now() - t0) / 1000
  const peakMb = (process.resourceUsage().maxRSS * 1024) / 2 ** 20
  const cpuUsPerRecord = (cpu.user + cpu.system) / N
  console.log(JSON.stringify({ mode, count, seconds, perSecond: N / seconds, cpuUsPerRecord, peakMb, inputMb: baseRss / 2 ** 20 }))
} else {
  // Each mode runs in its own process (its peak RSS is its own), the modes alternate, and each
  // figure is the median of ROUNDS: one run's floor swings by a quarter on a shared machine.
  const self = fileURLToPath(import.meta.url)
  const contenders = [
    ...Object.keys(modes).map((m) => ({ label: m, file: self, mode: m })),
    ...(against ? [{ label: `${ENGINE} @ ${against}`, file: self, mode: ENGINE, src: join(against, 'src') }] : []),
  ] as { label: string; file: string; mode: string; src?: string }[]
  const rounds = Array.from({ length: ROUNDS }, () =>
    contenders.map(({ label, file, mode: m, src }) => {
      const env = src ? { ...process.env, BENCH_ENGINE_SRC: src } : process.env
      const out = spawnSync(process.execPath, [...process.execArgv, file, m], { encoding: 'utf8', env })
      if (out.status !== 0) throw new Error(`${label} failed: ${out.stderr}`)
      const r = JSON.parse(out.stdout.trim().split('\n').at(-1) as string) as Result
      if (r.count !== N) throw new Error(`${label} handled ${r.count} of ${N}`)
      return r
    }),
  )
  console.log(`${N} session-ended records, node ${process.version}, median of ${ROUNDS} rounds (modes alternate)`)
  // The same floor bench:e2e sets its CPU per record against (bench/floor.ts).
  console.log(`${describeFloor(floorInChild())}\n`)
  const width = Math.max(36, ...contenders.map((c) => c.label.length + 2))
  // CPU µs per record (user + system of the run's process, GC threads included) moves far less than
  // wall time when other work shares the machine.
  console.log(`${'mode'.padEnd(width)}${'msg/s'.padStart(12)}${'vs JSON.parse'.padStart(15)}${'(each round)'.padStart(22)}${'CPU µs/rec'.padStart(12)}${'(each round)'.padStart(22)}${'peak RSS MB'.padStart(13)}`)
  contenders.forEach(({ label }, i) => {
    const runs = rounds.map((round) => round[i] as Result)
    const ratios = rounds.map((round) => (round[i] as Result).perSecond / (round[0] as Result).perSecond)
    const each = ratios.map((r) => r.toFixed(2)).join(' ')
    const cpus = runs.map((r) => r.cpuUsPerRecord)
    const cpuEach = cpus.map((c) => c.toFixed(1)).join(' ')
    console.log(`${label.padEnd(width)}${Math.round(median(runs.map((r) => r.perSecond))).toLocaleString('en').padStart(12)}${median(ratios).toFixed(3).padStart(15)}${` ${each}`.padStart(22)}${median(cpus).toFixed(2).padStart(12)}${` ${cpuEach}`.padStart(22)}${median(runs.map((r) => r.peakMb)).toFixed(0).padStart(13)}`)
  })
}
