import { randomUUID } from 'node:crypto'
import { Registry } from 'prom-client'
import { ConsumerEngine } from '../../src/application/engine/consumer-engine.js'
import type { DimensionProgress } from '../../src/application/engine/dimension-progress.js'
import { defaultTopics, type EngineConfig, type EngineTopics } from '../../src/application/engine/engine-config.js'
import type { EventHandler } from '../../src/application/handlers/event-handler.js'
import type { BrokerConsumer, BrokerRecord, OutboundRecord } from '../../src/application/ports/broker.port.js'
import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import { InMemoryDimensionReader } from '../../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryServingIndex } from '../../src/adapters/memory/in-memory-serving-index.js'
import { ServingFactStore } from '../../src/application/serving/serving-fact-store.js'
import { InMemoryReadModel } from '../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryTables } from '../../src/adapters/memory/in-memory-tables.js'
import { OtelTracer } from '../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../src/adapters/observability/prom-metrics.js'
import { ManualClock } from './clock.js'
import { FAST_CONFIG } from './harness.js'
import { createTopics, kafkaBroker, lagOf, readTopic, type KafkaAdapter } from './kafka.js'
import { RecordingLogger } from './recording-logger.js'

/** Handlers on unique topics and groups, so that tests never see each other's records. */
export const isolated = <H extends EventHandler>(make: (topic: string, group: string) => H, name: string): H => {
  const id = randomUUID().slice(0, 8)
  return make(`e2e.${name}.${id}`, `e2e-${name}-${id}`)
}

/**
 * The Kafka twin of test/support/harness.ts: the same engines, in-memory tables and read model,
 * but records travel through a real broker with one of the two Kafka adapters.
 */
export class KafkaHarness {
  readonly broker
  readonly tables = new InMemoryTables()
  readonly store = new InMemoryFactStore(this.tables)
  readonly dimensions = new InMemoryDimensionReader(this.tables)
  readonly readModel = new InMemoryReadModel(this.tables)
  readonly clock = new ManualClock()
  readonly logger = new RecordingLogger()
  readonly metrics = new PromMetrics(new Registry())
  readonly running = new Map<string, { engine: ConsumerEngine; consumer: BrokerConsumer }>()
  /** The store the engines write through: the facts, then the serving rows the read model reads. */
  sink: FactStore = new ServingFactStore(this.store, new InMemoryServingIndex(this.tables))
  /** The dimension consumers' progress seen by engines; unset, a gap is declared after the attempts alone. */
  dimensionProgress: DimensionProgress | undefined

  constructor(
    readonly adapter: KafkaAdapter,
    readonly handlers: readonly EventHandler[],
    readonly config: EngineConfig = { ...FAST_CONFIG, flushIntervalMs: 100 },
  ) {
    this.broker = kafkaBroker(adapter)
  }

  topicsOf(h: EventHandler): EngineTopics {
    return defaultTopics(h.topic, h.groupId)
  }

  /** Creates every handler's topics and starts the engines of `only` (default: all). */
  async start(only: readonly EventHandler[] = this.handlers): Promise<void> {
    await createTopics(
      this.handlers.flatMap((h) => {
        const t = this.topicsOf(h)
        return [{ name: t.source, partitions: 3 }, { name: t.deadLetter, partitions: 1 }, { name: t.retry, partitions: 2 }]
      }),
    )
    await Promise.all(only.map(async (handler) => {
      const consumer = this.broker.consumer(handler.groupId)
      const engine = new ConsumerEngine({
        handler,
        topics: this.topicsOf(handler),
        consumer,
        producer: this.broker.producer(),
        store: { append: (rows, at, trace) => this.sink.append(rows, at, trace) },
        dimensions: this.dimensions,
        dimensionProgress: this.dimensionProgress,
        clock: this.clock,
        logger: this.logger,
        metrics: this.metrics,
        tracer: new OtelTracer(),
        config: this.config,
      })
      this.running.set(handler.name, { engine, consumer })
      await engine.start()
    }))
  }

  engine(name: string): ConsumerEngine {
    const r = this.running.get(name)
    if (!r) throw new Error(`no engine ${name}`)
    return r.engine
  }

  publish(...records: OutboundRecord[]): Promise<void> {
    return this.broker.producer().publish(records)
  }

  /** True once the group committed everything on its source and retry topics and holds nothing parked. */
  async caughtUp(h: EventHandler): Promise<boolean> {
    const t = this.topicsOf(h)
    const lags = await Promise.all([lagOf(h.groupId, t.source), lagOf(h.groupId, t.retry)])
    return lags.every((l) => l === 0) && (this.running.get(h.name)?.engine.parkedInMemory ?? 0) === 0
  }

  dlq(h: EventHandler, count: number): Promise<BrokerRecord[]> {
    return readTopic(this.broker, this.topicsOf(h).deadLetter, count, 15_000)
  }

  async metric(name: string): Promise<number> {
    const m = await this.metrics.registry.getSingleMetric(name)?.get()
    return (m?.values ?? []).filter((v) => !('metricName' in v) || v.metricName === name).reduce((a, v) => a + v.value, 0)
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running.values()].map((r) => r.engine.stop()))
    this.running.clear()
    await this.broker.close()
  }
}

export const eventuallyAsync = async (condition: () => Promise<boolean> | boolean, timeoutMs = 60_000, what = 'condition'): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
