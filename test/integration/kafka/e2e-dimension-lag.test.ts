import { afterEach, describe, expect, it } from 'vitest'
import { AdminLagReader } from '../../../src/adapters/kafka/shared/admin-lag-reader.js'
import { DimensionProgressTracker } from '../../../src/application/engine/dimension-progress.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { LagMonitor } from '../../../src/application/ops/lag-monitor.js'
import type { ConsumerLagReader, PartitionLag } from '../../../src/application/ports/consumer-lag.port.js'
import { FAST_CONFIG } from '../../support/harness.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload } from '../../support/events.js'
import { KAFKA_ADAPTERS, lagOf } from '../../support/kafka.js'
import { KafkaHarness, eventuallyAsync, isolated } from '../../support/kafka-harness.js'

// The soak's finding (README "Soak under chaos" (5)): records parked for a dimension whose own
// consumer was still catching up a backlog ran out of attempts and were dead-lettered although
// their dimension had been produced in time. Here the dimension consumer is not running at all
// while the record's attempts run out; its progress is read from the real broker by the lag
// monitor, as the composition wires it.
describe.each(KAFKA_ADAPTERS)('a dimension consumer behind on a real broker: no dimension-gap until it has stored the window (%s)', (adapter) => {
  let h: KafkaHarness | undefined
  let monitor: LagMonitor | undefined
  afterEach(async () => {
    await monitor?.stop()
    await h?.stopAll()
  })

  it('the lead waits past its attempts, is counted once the dimension is stored, and a never-arriving one is still a gap', async () => {
    const leads = isolated(leadCreatedHandler, 'lag-leads')
    const dims = isolated(propertyObjectUpsertedHandler, 'lag-dims')
    const k = (h = new KafkaHarness(adapter, [leads, dims]))
    const tracker = new DimensionProgressTracker([dims.name], { fed: true })
    k.dimensionProgress = tracker
    const m = (monitor = new LagMonitor(new AdminLagReader(() => k.broker.admin()), [{ name: dims.name, groupId: dims.groupId, topics: [dims.topic] }], k.logger, 60_000, { clock: k.clock, observer: tracker }))
    const deadLetters = () => lagOf(`${leads.groupId}-nobody`, k.topicsOf(leads).deadLetter) // records on the DLQ
    const looks = async (n: number) => {
      const engine = k.engine(leads.name)
      for (let i = 0; i < n && !(await k.caughtUp(leads)); i++) {
        await eventuallyAsync(async () => engine.parkedInMemory > 0 || (await k.caughtUp(leads)), 60_000, `parked copy ${i + 1}`)
        await m.refresh()
        k.clock.advance(30_000)
        await engine.drain()
      }
    }

    await k.start([leads]) // the dimension consumer is down: its group is behind
    const po = path()
    await k.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po.PropertyObjectId })))
    await k.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    await looks(k.config.parking.maxAttempts + 3)
    expect(await deadLetters()).toBe(0) // judged by the attempts alone: 1 (dimension-gap)
    expect(await k.caughtUp(leads)).toBe(false)
    expect(k.tables.of('funnel_daily')).toHaveLength(0)

    await k.start([dims])
    await eventuallyAsync(() => k.caughtUp(dims), 60_000, 'the dimension consumer caught up')
    await looks(3)
    await eventuallyAsync(() => k.caughtUp(leads), 60_000, 'the lead counted')
    expect(k.tables.of('funnel_daily')).toHaveLength(1)
    expect(await deadLetters()).toBe(0)

    await k.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: path().PropertyObjectId })))
    await looks(k.config.parking.maxAttempts + 3)
    expect((await k.dlq(leads, 1)).map((r) => r.headers['dlq-reason'])).toEqual(['dimension-gap'])
  })
})

/** A lag reader whose reads wait while `held`, and fail once `failing` (the broker reachable for the consumers all along). */
class ControlledLagReader implements ConsumerLagReader {
  held: Promise<void> | undefined
  failing = false
  reads = 0

  constructor(private readonly inner: ConsumerLagReader) {}

  async lagOf(groupId: string, topics: readonly string[]): Promise<readonly PartitionLag[]> {
    await this.held
    if (this.failing) throw new Error('lag read refused (test)')
    const lags = await this.inner.lagOf(groupId, topics)
    this.reads++
    return lags
  }

  close(): Promise<void> {
    return this.inner.close()
  }
}

// Issue 39: the tracker is fed from construction, and the lag monitor runs on its own timer (not
// refreshed by the test): a restart's first read still pending holds spent copies; reads failing
// after the first hold them for the maximum wait past the window, then dead-letter them.
describe.each(KAFKA_ADAPTERS)('the dimension-gap wait with the lag monitor on its own timer (%s)', (adapter) => {
  let h: KafkaHarness | undefined
  let monitor: LagMonitor | undefined
  let release = () => {}
  afterEach(async () => {
    release()
    await monitor?.stop()
    await h?.stopAll()
  })

  const MAX_WAIT_MS = 120_000
  const setUp = (name: string, gapMaxWaitMs: number) => {
    const leads = isolated(leadCreatedHandler, `${name}-leads`)
    const dims = isolated(propertyObjectUpsertedHandler, `${name}-dims`)
    const k = (h = new KafkaHarness(adapter, [leads, dims], { ...FAST_CONFIG, flushIntervalMs: 100, parking: { ...FAST_CONFIG.parking, gapMaxWaitMs } }))
    const tracker = new DimensionProgressTracker([dims.name], { fed: true })
    k.dimensionProgress = tracker
    const reader = new ControlledLagReader(new AdminLagReader(() => k.broker.admin()))
    monitor = new LagMonitor(reader, [{ name: dims.name, groupId: dims.groupId, topics: [dims.topic] }], k.logger, 200, { clock: k.clock, observer: tracker })
    /** Lets the engine look at its parked copy `n` times, the clock 30 s on before each look. */
    const looks = async (n: number) => {
      const engine = k.engine(leads.name)
      for (let i = 0; i < n && !(await k.caughtUp(leads)); i++) {
        await eventuallyAsync(async () => engine.parkedInMemory > 0 || (await k.caughtUp(leads)), 60_000, `parked copy ${i + 1}`)
        k.clock.advance(30_000)
        await engine.drain()
      }
    }
    return { leads, dims, k, reader, monitor, looks }
  }

  it('a restart with the dimension consumer behind and the first lag read not back yet: no dead letter; the record is counted once the dimension is', async () => {
    const { leads, dims, k, reader, monitor: m, looks } = setUp('restart', 3_600_000)
    reader.held = new Promise<void>((r) => (release = r))
    m.start()
    await k.start([leads]) // the dimension consumer is not running yet: its group is behind
    const po = path()
    await k.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po.PropertyObjectId })))
    await k.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    await looks(k.config.parking.maxAttempts + 2)
    expect(reader.reads).toBe(0)
    expect(k.engine(leads.name).stats.dimensionGaps).toBe(0) // before issue 39: dead-lettered on its attempts alone
    expect(await k.caughtUp(leads)).toBe(false)

    release()
    await k.start([dims])
    await eventuallyAsync(() => k.caughtUp(dims), 60_000, 'the dimension consumer caught up')
    await looks(3)
    await eventuallyAsync(() => k.caughtUp(leads), 60_000, 'the lead counted')
    expect(k.tables.of('funnel_daily')).toHaveLength(1)
    expect(k.engine(leads.name).stats.dimensionGaps).toBe(0)
  })

  it('lag reads failing after the first: the copy waits the maximum wait past its window, then is an unproven dimension-gap', async () => {
    const { leads, k, reader, monitor: m, looks } = setUp('frozen', MAX_WAIT_MS)
    await k.start()
    m.start()
    await eventuallyAsync(async () => reader.reads > 0, 30_000, 'the first lag read')
    reader.failing = true
    const started = k.clock.now()
    await k.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: path().PropertyObjectId }))) // a dimension never produced
    const engine = k.engine(leads.name)
    // the attempts' window (1 s, 2 s: FAST_CONFIG) and then the maximum wait, 30 s a look
    await looks(k.config.parking.maxAttempts + MAX_WAIT_MS / 30_000 - 2)
    expect(engine.stats.dimensionGaps).toBe(0) // not before the maximum wait (the attempts alone ended at the second look)
    expect(k.clock.now() - started).toBeGreaterThanOrEqual(MAX_WAIT_MS)
    await looks(4)
    await eventuallyAsync(() => k.caughtUp(leads), 60_000, 'dead-lettered')
    expect(engine.stats.dimensionGaps).toBe(1) // not never
    expect(engine.stats.unprovenGaps).toBe(1)
    expect(await k.metric('dev_stats_dimension_gap_unproven_total')).toBe(1)
    expect((await k.dlq(leads, 1)).map((r) => r.headers['dlq-reason'])).toEqual(['dimension-gap'])
    expect(k.logger.lines.some((l) => l.level === 'warn' && /dimension-gap not proven/.test(l.message))).toBe(true)
  })
})
