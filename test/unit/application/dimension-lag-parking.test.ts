import { afterEach, describe, expect, it } from 'vitest'
import { InMemoryLagReader } from '../../../src/adapters/memory/in-memory-lag-reader.js'
import { DimensionProgressTracker } from '../../../src/application/engine/dimension-progress.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { GAP_RECHECK_MAX_MS } from '../../../src/application/engine/record-step.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { LagMonitor } from '../../../src/application/ops/lag-monitor.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

const leads = leadCreatedHandler()
const dims = propertyObjectUpsertedHandler()
const retryTopic = defaultTopics(leads.topic, leads.groupId).retry
const { maxAttempts, backoff } = FAST_CONFIG.parking
let h: Harness
let monitor: LagMonitor

afterEach(async () => h?.stopAll())

/** The harness with the dimension consumer's progress read from the broker, as the composition wires it. */
const harness = (): Harness => {
  h = new Harness([leads, dims])
  const tracker = new DimensionProgressTracker([dims.name], { fed: true })
  h.dimensionProgress = tracker
  monitor = new LagMonitor(new InMemoryLagReader(h.broker.log), [{ name: dims.name, groupId: dims.groupId, topics: [dims.topic] }], h.logger, 60_000, { clock: h.clock, observer: tracker })
  return h
}

/** Moves the clock past each parking delay in turn, reading the lag before each look, as the monitor would. */
const throughAttempts = async (looks: number): Promise<void> => {
  for (let i = 0; i < looks && !h.caughtUp(leads); i++) {
    await waitUntil(() => h.engine(leads.name).parkedInMemory === 1 || h.caughtUp(leads), 5000, `look ${i + 1}`)
    await monitor.refresh()
    h.clock.advance(backoff.maxMs)
    await new Promise((r) => setTimeout(r, 50))
  }
}

const latestCopy = () => h.broker.records(retryTopic).at(-1)

describe('parking while the dimension consumer lags: no dimension-gap until its progress passes the window', () => {
  it('the dimension was produced in time but its consumer is behind: the record waits past its attempts and is stored once the dimension is', async () => {
    harness()
    const po = path()
    await h.start(leads.name) // the dimension consumer is down: its group lags
    h.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po.PropertyObjectId })))
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    await throughAttempts(maxAttempts + 3)

    expect(h.dlq(leads)).toEqual([]) // without the dimension's progress: one dimension-gap dead letter
    expect(h.caughtUp(leads)).toBe(false)
    expect(latestCopy()?.headers['retry-attempt']).toBe(String(maxAttempts - 1))
    expect(latestCopy()?.headers['retry-window-end']).toBeDefined()

    await h.start(dims.name)
    await waitUntil(() => h.caughtUp(dims), 5000, 'the dimension consumer caught up')
    await monitor.refresh()
    h.clock.advance(GAP_RECHECK_MAX_MS)
    await waitUntil(() => h.caughtUp(leads), 5000, 'the waiting copy looked at again')
    expect(h.dlq(leads)).toEqual([])
    expect(h.tables.of('funnel_daily')).toHaveLength(1)
    expect(h.engine(leads.name).stats.recovered).toBe(1)
  })

  it('a dimension that never arrives is still a dimension-gap, once the caught-up consumer was read after the window closed', async () => {
    harness()
    await h.start()
    await monitor.refresh()
    h.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: path().PropertyObjectId })))
    await throughAttempts(maxAttempts + 3)
    await waitUntil(() => h.caughtUp(leads), 5000, 'gap')
    expect(h.dlq(leads).map((r) => r.headers['dlq-reason'])).toEqual(['dimension-gap'])
    expect(h.tables.of('funnel_daily')).toHaveLength(0)
  })
})
