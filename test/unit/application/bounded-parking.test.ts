import { afterEach, describe, expect, it } from 'vitest'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

const leads = leadCreatedHandler()
const dims = propertyObjectUpsertedHandler()
const retryTopic = defaultTopics(leads.topic, leads.groupId).retry
let h: Harness

afterEach(async () => h?.stopAll())

/** A parked copy as the engine writes it: attempt 1, due at `dueAt`. */
const parkedCopy = (propertyObjectId: string, dueAt: number, i: number) =>
  binaryRecord(retryTopic, leadCreatedPayload({ OriginPropertyObjectId: propertyObjectId }), {
    key: String(i),
    headers: { 'retry-attempt': '1', 'retry-due-at': new Date(dueAt).toISOString(), 'retry-origin-topic': leads.topic, 'retry-origin-partition': '0', 'retry-origin-offset': String(i) },
  })

const settled = async (read: () => number): Promise<number> => {
  let last = -1
  for (;;) {
    const now = read()
    if (now === last) return now
    last = now
    await new Promise((r) => setTimeout(r, 150))
  }
}

describe('bounded parking: at most maxInMemory parked copies wait in memory', () => {
  it('1,000 parked copies with a bound of 100: the retry topic pauses near 100, resumes as they fall due, and all are counted', async () => {
    h = new Harness([leads, dims], { ...FAST_CONFIG, parking: { ...FAST_CONFIG.parking, maxInMemory: 100 } })
    h.broker.createTopic(retryTopic, 3)
    const po = path()
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    const dueAt = h.clock.now() + 60_000
    h.publish(...Array.from({ length: 1000 }, (_, i) => parkedCopy(po.PropertyObjectId, dueAt, i)))
    await h.start()
    const held = await settled(() => h.engine(leads.name).parkedInMemory)
    expect(held).toBeGreaterThanOrEqual(100)
    expect(held).toBeLessThan(100 + 50) // the bound plus at most one broker batch (pollSize 50)
    expect(h.logger.lines.some((l) => l.message === 'parking full: retry topic paused')).toBe(true)

    h.clock.advance(60_000)
    await waitUntil(() => h.caughtUp(leads), 10_000, 'every parked copy processed once due')
    expect(h.tables.of('funnel_daily')).toHaveLength(1000)
    expect(h.engine(leads.name).stats.recovered).toBe(1000)
    expect(h.engine(leads.name).parkedInMemory).toBe(0)
  })

  it('records parked for a late dimension are one info line per routed slice, not one per record', async () => {
    h = new Harness([leads], FAST_CONFIG)
    const missing = path().PropertyObjectId
    h.publish(...Array.from({ length: 30 }, (_, i) => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: missing }), { key: String(i) })))
    await h.start()
    await waitUntil(() => h.engine(leads.name).stats.parked === 30, 5000, 'all 30 parked')
    const lines = h.logger.at('info').filter((l) => l.message === 'parked for a late dimension')
    expect(lines.length).toBeLessThan(30)
    expect(lines.reduce((n, l) => n + (l.fields['records'] as number), 0)).toBe(30)
    expect(lines.every((l) => l.fields['dimensions'] === 1)).toBe(true)
    expect(h.logger.at('debug').some((l) => l.message === 'parked records')).toBe(true)
  })
})
