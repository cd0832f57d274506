import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { parkedRecord } from '../../../src/application/engine/side-records.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import type { BrokerRecord, ConsumerCallbacks } from '../../../src/application/ports/broker.port.js'
import { OtelTracer } from '../../../src/adapters/observability/otel-tracer.js'
import { PromMetrics } from '../../../src/adapters/observability/prom-metrics.js'
import { ManualClock } from '../../support/clock.js'
import { binaryRecord, leadCreatedPayload, path } from '../../support/events.js'
import { RecordingLogger } from '../../support/recording-logger.js'
import { ScriptedConsumer } from '../../support/scripted-consumer.js'

// The two-hour wire-fault soak lost two dead letters this way: a group rejoin that kept the retry
// partition made the client read a parked copy again, so it waited twice. Both fell due while the
// store was down; the first took the dimension lookup, the second was settled as an in-batch
// duplicate of it. A SIGTERM abandoned the lookup, and stop() committed the batch holding the
// duplicate: the offset counted as done, past the copy whose next step was never published. The
// parking lot now settles the second read at once as a duplicate of the waiting one; the offset
// must stay in flight until the waiting read is settled too.

const leads = leadCreatedHandler()
const topics = defaultTopics(leads.topic, leads.groupId)
const po = path()

const clock = new ManualClock()

const parked = (offset: number, dueAt: number): BrokerRecord => {
  const source = binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po.PropertyObjectId }), { key: 'k' })
  const copy = parkedRecord({ ...source, partition: 0, offset: String(offset) }, 1, dueAt, topics.retry)
  return { ...copy, partition: 0, offset: String(offset) }
}

/** A started engine whose every dimension lookup fails (the store is down); `lookups()` counts the tries. */
const withStoreDown = async () => {
  const consumer = new ScriptedConsumer()
  let tries = 0
  const engine = new ConsumerEngine({
    handler: leads, topics, consumer,
    producer: { publish: async () => undefined },
    store: { append: async () => undefined },
    dimensions: { latestPaths: async () => (tries++, Promise.reject(new Error('connect ECONNREFUSED'))) },
    clock, logger: new RecordingLogger(), metrics: new PromMetrics(new Registry()), tracer: new OtelTracer(),
    config: { maxBatchRows: 1000, flushIntervalMs: 60_000, sinkBackoff: { initialMs: 5, maxMs: 20 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } },
  })
  await engine.start()
  return { consumer, engine, callbacks: consumer.callbacks as ConsumerCallbacks, lookups: () => tries }
}

describe('a parked copy read twice, whose lookup a stop abandons', () => {
  it('is not committed past: the duplicate settles, the copy it duplicates does not', async () => {
    const { consumer, engine, callbacks, lookups } = await withStoreDown()
    const copy = parked(7, clock.now() + 1000)
    await callbacks.onBatch([copy])
    await callbacks.onBatch([copy]) // read again after a rejoin that kept the partition
    expect(engine.parkedInMemory).toBe(1) // the second read is settled as a duplicate of the waiting one
    clock.advance(2000)
    const draining = engine.drain().catch(() => undefined)
    while (lookups() < 2) await new Promise((r) => setTimeout(r, 5))
    await engine.stop()
    await draining
    const committed = consumer.commits.filter((c) => c.topic === topics.retry).map((c) => Number(c.offset))
    expect(Math.max(0, ...committed)).toBeLessThanOrEqual(7)
  })
})

// The same soak's log: the batch whose lookup the SIGTERM abandoned was thrown back to kafkajs,
// which crashed, restarted and rejoined the group while the instance was stopping, and read the
// partitions again from the last commit into the halted engine.
describe('a batch whose lookup a stop abandons', () => {
  it('is answered, not thrown back to the client; what arrives after the stop began is not taken', async () => {
    const { consumer, engine, callbacks, lookups } = await withStoreDown()
    const due = clock.now() - 1000
    const delivered = callbacks.onBatch([parked(3, due)])
    while (lookups() < 1) await new Promise((r) => setTimeout(r, 5))
    const stopping = engine.stop()
    await expect(delivered).resolves.toBeUndefined()
    const late = callbacks.onBatch([parked(4, due)])
    await expect(late).resolves.toBeUndefined()
    await stopping
    expect(lookups()).toBe(1)
    expect(consumer.commits).toEqual([])
  })
})
