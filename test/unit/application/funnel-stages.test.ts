import { afterEach, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import type { EventHandler } from '../../../src/application/handlers/event-handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import type { FunnelStage } from '../../../src/domain/funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { EMPTY, binaryRecord, funnelEventPayload, path, propertyObjectUpsertedPayload, type Path } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// The six funnel-stage consumers whose events carry PropertyObjectId and OccurredAt (spec §6).
const STAGES: readonly (readonly [name: string, keyField: string, stage: FunnelStage])[] = [
  ['funnel-favorites', 'FavoriteId', 'Favorites'],
  ['funnel-selections', 'SelectionItemId', 'Selections'],
  ['funnel-crm-booking', 'BookingId', 'Bookings'],
  ['funnel-crm-booking-paid', 'BookingId', 'BookingsPaid'],
  ['funnel-crm-deal', 'DealId', 'Deals'],
  ['funnel-crm-deal-completed', 'DealId', 'DealsCompleted'],
]
const dims = propertyObjectUpsertedHandler()
const day = { fromDate: '2026-11-30', toDate: '2026-11-30' }
let h: Harness

afterEach(async () => h?.stopAll())

const handlerOf = (name: string): EventHandler => {
  const spec = CONSUMERS.find((c) => c.name === name)
  if (!spec) throw new Error(`no consumer ${name} in the registry`)
  return spec.handler(spec.topic, spec.groupId)
}

describe.each(STAGES)('%s (key %s, stage %s)', (name, keyField, stage) => {
  const consumer = handlerOf(name)
  const event = (po: Path, o: Record<string, unknown> = {}, messageId?: string) =>
    binaryRecord(consumer.topic, funnelEventPayload(keyField, po.PropertyObjectId, o), messageId ? { messageId } : {})
  const countOf = async (po: Path) =>
    (await h.readModel.funnelCounts(po.DeveloperId as Guid, day, { propertyObjectId: po.PropertyObjectId as Guid }))[stage]
  const start = async (withDimension?: Path) => {
    h = new Harness([consumer, dims])
    await h.start()
    if (withDimension) {
      h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(withDimension)))
      await waitUntil(() => h.caughtUp(dims), 5000, 'dimension')
    }
  }

  it('happy path: one event counts once in its stage, on the UTC day of OccurredAt, with the whole hierarchy', async () => {
    const po = path()
    await start(po)
    const e = funnelEventPayload(keyField, po.PropertyObjectId, { OccurredAt: '2026-11-30T08:30:00+09:00' })
    h.publish(binaryRecord(consumer.topic, e))
    await waitUntil(() => h.caughtUp(consumer), 5000, 'caught up')
    expect(h.tables.of('funnel_daily').map((r) => r.fact.row)).toEqual([
      expect.objectContaining({
        stage, businessKey: e[keyField], eventDate: '2026-11-29', developerId: po.DeveloperId, projectId: po.ProjectId,
        buildingId: po.BuildingId, layoutGroupId: po.LayoutGroupId, layoutId: po.LayoutId, propertyObjectId: po.PropertyObjectId,
      }),
    ])
    expect(h.dlq(consumer)).toEqual([])
  })

  it('redelivery counts once: the same record again, and another message with the same business key', async () => {
    const po = path()
    await start(po)
    const first = funnelEventPayload(keyField, po.PropertyObjectId)
    const record = binaryRecord(consumer.topic, first)
    h.publish(record)
    await waitUntil(() => h.caughtUp(consumer), 5000, 'first')
    h.publish(record, binaryRecord(consumer.topic, { ...first, OccurredAt: '2026-11-30T11:00:00Z' }))
    await waitUntil(() => h.caughtUp(consumer), 5000, 'redelivered')
    expect(await countOf(po)).toBe(1)
  })

  it('late dimension: parked on the retry topic, then counted once the dimension arrives', async () => {
    const po = path()
    await start()
    h.publish(event(po))
    await waitUntil(() => h.engine(consumer.name).parkedInMemory === 1, 5000, 'parked copy read back, not due yet')
    expect(h.broker.records(defaultTopics(consumer.topic, consumer.groupId).retry)).toHaveLength(1)
    expect(await countOf(po)).toBe(0)
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    await waitUntil(() => h.caughtUp(dims), 5000, 'dimension')
    h.clock.advance(FAST_CONFIG.parking.backoff.maxMs)
    await waitUntil(() => h.caughtUp(consumer), 5000, 'parked copy counted')
    expect(await countOf(po)).toBe(1)
    expect(h.engine(consumer.name).stats.recovered).toBe(1)
  })

  it('a dimension that never arrives: dead letter dimension-gap after the last attempt', async () => {
    const po = path()
    await start()
    h.publish(event(po))
    for (let i = 0; i < FAST_CONFIG.parking.maxAttempts && !h.caughtUp(consumer); i++) {
      await waitUntil(() => h.engine(consumer.name).parkedInMemory === 1 || h.caughtUp(consumer), 5000, `attempt ${i + 1}`)
      h.clock.advance(FAST_CONFIG.parking.backoff.maxMs)
      await new Promise((r) => setTimeout(r, 50))
    }
    await waitUntil(() => h.caughtUp(consumer), 5000, 'gap')
    expect(h.dlq(consumer).map((r) => r.headers['dlq-reason'])).toEqual(['dimension-gap'])
  })

  it.each([
    ['undecodable', { [keyField]: undefined }],
    ['undecodable', { OccurredAt: 'yesterday' }],
    ['empty-id', { [keyField]: EMPTY }],
    ['empty-id', { PropertyObjectId: EMPTY }],
    ['default-created-at', { OccurredAt: '0001-01-01T00:00:00+00:00' }],
    ['created-at-in-future', { OccurredAt: '2026-11-30T13:00:01Z' }],
    ['out-of-range', { OccurredAt: '1900-01-01T00:00:00Z' }],
    ['out-of-range', { OccurredAt: '1970-01-01T08:00:00Z' }],
  ])('poison %s: %o goes to the dead-letter topic, the partition goes on', async (reason, o) => {
    const po = path()
    await start(po)
    h.publish(event(po, o), event(po))
    await waitUntil(() => h.caughtUp(consumer), 5000, 'caught up')
    expect(h.dlq(consumer).map((r) => r.headers['dlq-reason'])).toEqual([reason])
    expect(await countOf(po)).toBe(1)
  })

  it('poison missing-message-id: a record without ce_id', async () => {
    const po = path()
    await start(po)
    h.publish(binaryRecord(consumer.topic, funnelEventPayload(keyField, po.PropertyObjectId), { messageId: null }))
    await waitUntil(() => h.caughtUp(consumer), 5000, 'caught up')
    expect(h.dlq(consumer).map((r) => r.headers['dlq-reason'])).toEqual(['missing-message-id'])
  })
})
