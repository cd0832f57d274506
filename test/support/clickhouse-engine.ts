import { Registry } from 'prom-client'
import { ClickHouseDimensionReader } from '../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { servingFactStore } from './clickhouse.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { systemClock } from '../../src/adapters/clock/system-clock.js'
import { OtelTracer } from '../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../src/adapters/observability/prom-metrics.js'
import { ConsumerEngine } from '../../src/application/engine/consumer-engine.js'
import { defaultTopics } from '../../src/application/engine/engine-config.js'
import type { EventHandler } from '../../src/application/handlers/event-handler.js'
import type { Broker } from '../../src/application/ports/broker.port.js'
import { RecordingLogger } from './recording-logger.js'

/** One engine on a real broker writing to real ClickHouse (store and dimension reader), fast settings for tests. */
export const clickhouseEngine = (broker: Broker, session: ClickHouseSession, handler: EventHandler): ConsumerEngine =>
  new ConsumerEngine({
    handler, topics: defaultTopics(handler.topic, handler.groupId), consumer: broker.consumer(handler.groupId), producer: broker.producer(),
    store: servingFactStore(session), dimensions: new ClickHouseDimensionReader(session), clock: systemClock,
    logger: new RecordingLogger(), metrics: new PromMetrics(new Registry()), tracer: new OtelTracer(),
    config: {
      maxBatchRows: 500, flushIntervalMs: 100, sinkBackoff: { initialMs: 100, maxMs: 1000 },
      parking: { maxAttempts: 2, maxInMemory: 10_000, backoff: { initialMs: 200, maxMs: 400 } },
    },
  })
