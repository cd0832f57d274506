import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { BrokerConsumer, ConsumerCallbacks, OffsetCommit } from '../../../src/application/ports/broker.port.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { OtelTracer } from '../../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../../src/adapters/observability/prom-metrics.js'
import { ManualClock } from '../../support/clock.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { RecordingLogger } from '../../support/recording-logger.js'

// Issue 36.3: a broker gone silent answers no commit, and kafkajs retries one for minutes. The
// stop's last commit (of a batch inserted on the way out) must not hold the exit: it is given up
// after the engine's wait, its offsets left uncommitted (read again after a restart).
class SilentCommits implements BrokerConsumer {
  callbacks: ConsumerCallbacks | undefined
  asked: OffsetCommit[] = []
  answer = false
  async run(_topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void> {
    this.callbacks = callbacks
  }
  commit(offsets: readonly OffsetCommit[]): Promise<void> {
    this.asked.push(...offsets)
    return this.answer ? Promise.resolve() : new Promise(() => undefined)
  }
  pause(): void {}
  resume(): void {}
  pauseTopic(): void {}
  resumeTopic(): void {}
  async stop(): Promise<void> {}
}

const engineOn = (consumer: BrokerConsumer, stored: FactRow[], logger: RecordingLogger) => {
  const handler = sessionEndedHandler()
  return new ConsumerEngine({
    handler, topics: defaultTopics(handler.topic, handler.groupId), consumer,
    producer: { publish: async () => undefined },
    store: { append: async (rows) => void stored.push(...rows) },
    dimensions: { latestPaths: async () => new Map() },
    clock: new ManualClock(), logger, metrics: new PromMetrics(new Registry()), tracer: new OtelTracer(),
    config: { maxBatchRows: 1000, flushIntervalMs: 60_000, sinkBackoff: { initialMs: 5, maxMs: 40 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } },
    stopCommitWaitMs: 100,
  })
}
const records = () => [0, 1, 2].map((o) => ({ ...binaryRecord(sessionEndedHandler().topic, sessionEndedPayload()), partition: 0, offset: String(o) }))

describe('stopping while the broker answers no commit', () => {
  it('inserts the open batch, asks for its commit, and stops after the wait without it', async () => {
    const consumer = new SilentCommits()
    const stored: FactRow[] = []
    const logger = new RecordingLogger()
    const engine = engineOn(consumer, stored, logger)
    await engine.start()
    await (consumer.callbacks as ConsumerCallbacks).onBatch(records())
    const at = performance.now()
    await engine.stop()
    expect(performance.now() - at).toBeLessThan(2000)
    expect(stored).toHaveLength(3)
    expect(consumer.asked.map((c) => c.offset)).toEqual(['3'])
    expect(logger.at('warn').map((l) => l.message)).toContain('offset commit failed')
  })

  it('waits for a commit that is answered', async () => {
    const consumer = new SilentCommits()
    consumer.answer = true
    const logger = new RecordingLogger()
    const engine = engineOn(consumer, [], logger)
    await engine.start()
    await (consumer.callbacks as ConsumerCallbacks).onBatch(records())
    await engine.stop()
    expect(consumer.asked.map((c) => c.offset)).toEqual(['3'])
    expect(logger.at('warn').map((l) => l.message)).not.toContain('offset commit failed')
  })
})
