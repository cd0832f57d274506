import { Registry } from 'prom-client'
import type { SourceBacklog } from '../../src/application/engine/backlog.js'
import type { MemoryBudget } from '../../src/application/engine/memory-budget.js'
import { ConsumerEngine } from '../../src/application/engine/consumer-engine.js'
import type { DimensionProgress } from '../../src/application/engine/dimension-progress.js'
import { defaultTopics, type EngineConfig } from '../../src/application/engine/engine-config.js'
import type { EventHandler } from '../../src/application/handlers/event-handler.js'
import type { OutboundRecord } from '../../src/application/ports/broker.port.js'
import type { DimensionReader } from '../../src/application/ports/dimension-reader.port.js'
import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import type { Tracer } from '../../src/application/ports/tracer.port.js'
import { InMemoryBroker } from '../../src/adapters/memory/in-memory-broker.js'
import type { InMemoryConsumer } from '../../src/adapters/memory/in-memory-consumer.js'
import { InMemoryDimensionReader } from '../../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryServingIndex } from '../../src/adapters/memory/in-memory-serving-index.js'
import { ServingFactStore } from '../../src/application/serving/serving-fact-store.js'
import { InMemoryReadModel } from '../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryTables } from '../../src/adapters/memory/in-memory-tables.js'
import { OtelTracer } from '../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../src/adapters/observability/prom-metrics.js'
import { ManualClock } from './clock.js'
import { RecordingLogger } from './recording-logger.js'

export const FAST_CONFIG: EngineConfig = {
  maxBatchRows: 100,
  flushIntervalMs: 20,
  sinkBackoff: { initialMs: 5, maxMs: 40 },
  parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } },
}

export interface Running {
  readonly engine: ConsumerEngine
  readonly consumer: InMemoryConsumer
}

/** In-memory pipeline: broker, tables, store and one engine per handler, as the container wires them. */
export class Harness {
  readonly broker = new InMemoryBroker(50)
  readonly tables = new InMemoryTables()
  readonly store = new InMemoryFactStore(this.tables)
  readonly dimensions = new InMemoryDimensionReader(this.tables)
  readonly readModel = new InMemoryReadModel(this.tables)
  readonly clock = new ManualClock()
  readonly logger = new RecordingLogger()
  readonly metrics = new PromMetrics(new Registry())
  readonly running = new Map<string, Running>()
  /** Store seen by engines; a test may wrap `store` to inject behaviour. */
  /** The store the engines write through: the facts, then the serving rows the read model reads. */
  sink: FactStore = new ServingFactStore(this.store, new InMemoryServingIndex(this.tables))
  /** Tracer of the engines started next; OpenTelemetry's API, a no-op until an SDK is registered. */
  tracer: Tracer = new OtelTracer()
  /** Dimension reader seen by engines; a test on another store points it there. */
  lookup: DimensionReader = this.dimensions
  /** The dimension consumers' progress seen by engines; unset, a gap is declared after the attempts alone. */
  dimensionProgress: DimensionProgress | undefined
  /** Each engine's backlog (the lag reads), by consumer name; unset, batches never grow. */
  readonly backlogs = new Map<string, SourceBacklog>()
  /** The store's parts pressure seen by engines; unset, never high. */
  pressure: { high: boolean } | undefined
  /** The memory budget every engine shares; unset, unlimited. */
  budget: MemoryBudget | undefined

  constructor(
    readonly handlers: readonly EventHandler[],
    readonly config: EngineConfig = FAST_CONFIG,
  ) {
    for (const h of handlers) this.broker.createTopic(h.topic, 3)
  }

  async start(name?: string): Promise<void> {
    for (const handler of this.handlers.filter((h) => name === undefined || h.name === name)) {
      const consumer = this.broker.consumer(handler.groupId)
      const engine = new ConsumerEngine({
        handler,
        topics: defaultTopics(handler.topic, handler.groupId),
        consumer,
        producer: this.broker.producer(),
        store: { append: (rows, at, trace) => this.sink.append(rows, at, trace) },
        dimensions: { latestPaths: (ids) => this.lookup.latestPaths(ids) },
        dimensionProgress: this.dimensionProgress,
        ...(this.backlogs.has(handler.name) ? { backlog: this.backlogs.get(handler.name) } : {}),
        ...(this.pressure ? { pressure: this.pressure } : {}),
        ...(this.budget ? { budget: this.budget } : {}),
        clock: this.clock,
        logger: this.logger,
        metrics: this.metrics,
        tracer: this.tracer,
        config: this.config,
      })
      this.running.set(handler.name, { engine, consumer })
      await engine.start()
    }
  }

  engine(name: string): ConsumerEngine {
    const r = this.running.get(name)
    if (!r) throw new Error(`no engine ${name}`)
    return r.engine
  }

  publish(...records: OutboundRecord[]): void {
    const produce = this.broker.producer()
    void produce.publish(records)
  }

  /** SIGKILL of the process running `name`: nothing pending is flushed or committed. */
  async kill(name: string): Promise<void> {
    const r = this.running.get(name)
    if (!r) return
    r.engine.abort()
    await r.consumer.crash()
    this.running.delete(name)
  }

  async stopAll(): Promise<void> {
    for (const [name, r] of this.running) {
      await r.engine.stop()
      this.running.delete(name)
    }
  }

  /** True once the group committed every record of its source topic and holds nothing parked. */
  caughtUp(handler: EventHandler): boolean {
    const topics = defaultTopics(handler.topic, handler.groupId)
    const behind = [topics.source, topics.retry].some((topic) =>
      this.broker.records(topic).some(
        (r) => this.broker.log.committedOffset(handler.groupId, { topic, partition: r.partition }) <= r.offset,
      ),
    )
    return !behind
  }

  dlq(handler: EventHandler): readonly OutboundRecord[] {
    return this.broker.records(defaultTopics(handler.topic, handler.groupId).deadLetter)
  }

  async metric(name: string): Promise<number> {
    const m = await this.metrics.registry.getSingleMetric(name)?.get()
    return (m?.values ?? []).filter((v) => !('metricName' in v) || v.metricName === name).reduce((a, v) => a + v.value, 0)
  }
}

export const waitUntil = async (condition: () => boolean, timeoutMs = 10_000, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 5))
  }
}
