import { Registry } from 'prom-client'
import { afterEach, describe, expect, it, vi } from 'vitest'
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

// Issue 46.3: a commit asked for before the SIGTERM (the broker went silent mid-run) held the stop
// until the CLI's 50 s deadline; it gets the same bounded wait from the stop on.
describe('stopping while a commit asked for before the stop is unanswered', () => {
  it('stops after the wait, the commit given up', async () => {
    const consumer = new SilentCommits()
    const logger = new RecordingLogger()
    const engine = engineOn(consumer, [], logger)
    await engine.start()
    await (consumer.callbacks as ConsumerCallbacks).onBatch(records())
    void engine.drain()
    await waitFor(() => consumer.asked.length === 1)
    const at = performance.now()
    const stopped = await Promise.race([engine.stop().then(() => true), new Promise((r) => setTimeout(() => r(false), 3000))])
    expect(stopped).toBe(true)
    expect(performance.now() - at).toBeLessThan(2000)
    expect(logger.at('warn').map((l) => l.message)).toContain('offset commit failed')
  })
})

// Issue 46.3: a stop() while start() was still joining left the flush timer running in a host.
describe('a stop() while start() is joining', () => {
  afterEach(() => vi.useRealTimers())

  it('leaves no timer behind', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    let joined = () => undefined as void
    const consumer = new SilentCommits()
    consumer.run = async (_topics, callbacks) => {
      consumer.callbacks = callbacks
      await new Promise<void>((resolve) => (joined = resolve))
    }
    const engine = engineOn(consumer, [], new RecordingLogger())
    const starting = engine.start()
    await engine.stop()
    joined()
    await starting
    expect(vi.getTimerCount()).toBe(0)
  })
})

const waitFor = async (done: () => boolean): Promise<void> => {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(done()).toBe(true)
}
