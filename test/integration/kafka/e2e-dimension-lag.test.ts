import { afterEach, describe, expect, it } from 'vitest'
import { AdminLagReader } from '../../../src/adapters/kafka/admin-lag-reader.js'
import { DimensionProgressTracker } from '../../../src/application/engine/dimension-progress.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { LagMonitor } from '../../../src/application/ops/lag-monitor.js'
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
    const tracker = new DimensionProgressTracker([dims.name])
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
