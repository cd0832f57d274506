import { afterEach, describe, expect, it } from 'vitest'
import { SourceBacklog } from '../../../src/application/engine/backlog.js'
import { MemoryBudget, recordBytes } from '../../../src/application/engine/memory-budget.js'
import { ParkingLot } from '../../../src/application/engine/parking-lot.js'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import type { Instant } from '../../../src/domain/instant.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// Issue 46.1: one budget per process for the records held, shared by every consumer: taken when
// a record is accepted (and a parked copy held), given back when its batch is committed; a consumer
// that finds it spent pauses instead of reading on; catch-up growth only within it.
const sessions = sessionEndedHandler()
/** A second consumer of the same kind, on a topic and group of its own. */
const moreSessions = { ...sessionEndedHandler('sessions.more', 'g-more-sessions'), name: 'more-sessions' }
const padding = 'x'.repeat(4000)
let h: Harness | undefined
afterEach(async () => h?.stopAll())

describe('MemoryBudget', () => {
  it('is spent from its capacity until back under half, then wakes its waiters; never goes below 0', () => {
    const budget = new MemoryBudget(1000)
    const woken: string[] = []
    budget.whenRoom(() => woken.push('at once'))
    budget.take(1200)
    expect(budget.full).toBe(true)
    budget.whenRoom(() => woken.push('later'))
    budget.give(300)
    expect([budget.full, woken]).toEqual([true, ['at once']])
    budget.give(450)
    expect([budget.full, woken]).toEqual([false, ['at once', 'later']])
    budget.take(400)
    expect(budget.full).toBe(false)
    budget.give(5000)
    expect(budget.used).toBe(0)
  })

  it('has room again once the batches hold under half of what the parked copies leave', () => {
    const budget = new MemoryBudget(1000)
    budget.takeParked(600)
    budget.take(500)
    let woken = false
    budget.whenRoom(() => (woken = true))
    budget.give(300) // batches 200: not under (1000 - 600) / 2
    expect(woken).toBe(false)
    budget.give(50)
    expect(woken).toBe(true)
    budget.giveParked(600)
    expect(budget.used).toBe(150)
  })

  it('counts the parked copies a ParkingLot holds until they fall due or their partition is revoked', () => {
    const budget = new MemoryBudget(1_000_000)
    const lot = new ParkingLot(100, { close: () => undefined, open: () => undefined }, budget)
    const r = (partition: number) => ({ ...binaryRecord('g.retry', sessionEndedPayload()), partition, offset: '0' })
    const [a, b] = [r(0), r(1)]
    lot.hold(a, 10 as Instant)
    lot.hold(b, 20 as Instant)
    expect(budget.used).toBe(recordBytes(a) + recordBytes(b))
    lot.takeDue(15 as Instant)
    expect(budget.used).toBe(recordBytes(b))
    lot.revoke([{ topic: 'g.retry', partition: 1 }])
    expect(budget.used).toBe(0)
  })
})

describe('consumers sharing one budget (in-memory adapters)', () => {
  const wide = (n: number) => [
    ...Array.from({ length: n }, () => binaryRecord(sessions.topic, sessionEndedPayload({ Padding: padding }))),
    ...Array.from({ length: n }, () => binaryRecord(moreSessions.topic, sessionEndedPayload({ Padding: padding }))),
  ]

  it('hold at most the budget and one fetch each, pause while it is spent, store every record once and give every byte back', async () => {
    h = new Harness([sessions, moreSessions], { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs: 50 })
    const budget = (h.budget = new MemoryBudget(400_000))
    let peak = 0
    h.sink = {
      append: async (rows: readonly FactRow[], at: number) => {
        peak = Math.max(peak, budget.used)
        await new Promise((r) => setTimeout(r, 5))
        return h!.store.append(rows, at)
      },
    }
    h.publish(...wide(1500))
    await h.start()
    const stored = () => new Set(h!.tables.of('session_facts').map((r) => r.fact.row.factId)).size
    await waitUntil(() => stored() === 3000 && h!.caughtUp(sessions) && h!.caughtUp(moreSessions), 30_000, 'all stored and committed')
    const fetchBytes = 100 * recordBytes(wide(1)[0]!)
    expect(peak).toBeGreaterThan(0)
    expect(peak).toBeLessThanOrEqual(400_000 + 2 * fetchBytes)
    expect(budget.pauses).toBeGreaterThan(0)
    expect(await h.metric('dev_stats_memory_budget_pauses_total')).toBe(budget.pauses)
    await waitUntil(() => budget.used === 0, 5000, 'every byte given back')
  })

  it('do not grow their batches for a backlog while more than half of the budget is in use', async () => {
    h = new Harness([sessions], { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs: 50, catchUp: { maxRows: 800, maxBytes: 16 * 1024 * 1024 } })
    const budget = (h.budget = new MemoryBudget(10_000_000))
    budget.take(6_000_000) // held elsewhere: another consumer's batches
    const inserts: number[] = []
    h.sink = { append: async (rows: readonly FactRow[], at: number) => (inserts.push(rows.length), h!.store.append(rows, at)) }
    const backlog = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, backlog)
    h.publish(...Array.from({ length: 3000 }, () => binaryRecord(sessions.topic, sessionEndedPayload())))
    backlog.read((await h.broker.partitionOffsets(sessions.topic)).map((p) => ({ topic: sessions.topic, partition: p.partition, end: Number(p.high), committed: 0, lag: Number(p.high) })))
    await h.start()
    await waitUntil(() => inserts.reduce((a, b) => a + b, 0) === 3000, 20_000, 'all stored')
    expect(Math.max(...inserts)).toBeLessThanOrEqual(100)
  })

  it('keep inserting batches of the normal size while a backlog holds the budget spent', async () => {
    // four consumers, a store taking one insert at a time: woken as soon as one insert gave room,
    // each consumer fetched once (50 records) and inserted those alone: 3 inserts in 4
    const consumers = Array.from({ length: 4 }, (_, i) => ({ ...sessionEndedHandler(`sessions.${i}`, `g-sessions-${i}`), name: `sessions-${i}` }))
    h = new Harness(consumers, { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs: 1000, flushesInFlight: 8 })
    const budget = (h.budget = new MemoryBudget(16 * 100 * recordBytes(wide(1)[0]!)))
    const inserts: number[] = []
    let store = Promise.resolve()
    h.sink = {
      append: (rows: readonly FactRow[], at: number) => {
        const insert = store.then(async () => {
          inserts.push(rows.length)
          await new Promise((r) => setTimeout(r, 10))
          return h!.store.append(rows, at)
        })
        store = insert.then(() => undefined, () => undefined)
        return insert
      },
    }
    for (const c of consumers) h.publish(...Array.from({ length: 1500 }, () => binaryRecord(c.topic, sessionEndedPayload({ Padding: padding }))))
    await h.start()
    await waitUntil(() => inserts.reduce((a, b) => a + b, 0) === 6000, 30_000, 'all stored')
    expect(budget.pauses).toBeGreaterThan(0)
    const full = inserts.filter((n) => n === 100).length
    expect(full / inserts.length, inserts.join(' ')).toBeGreaterThanOrEqual(2 / 3)
  })
})

describe('parked copies holding the budget (in-memory adapters)', () => {
  const leads = leadCreatedHandler()
  const dims = propertyObjectUpsertedHandler()

  it('never stop the dimension consumer that their records wait for', async () => {
    h = new Harness([leads, dims])
    const budget = (h.budget = new MemoryBudget(100_000))
    await h.start()
    // leads whose property objects are not stored yet: parked, their copies held until due (the clock stands still)
    const paths = Array.from({ length: 300 }, () => path())
    h.publish(...paths.map((p) => binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: p.PropertyObjectId, Padding: 'x'.repeat(1000) }))))
    await waitUntil(() => budget.full && h!.engine(leads.name).parkedInMemory > 0, 10_000, 'the budget spent on parked copies')
    h.publish(...paths.map((p) => binaryRecord(dims.topic, propertyObjectUpsertedPayload(p))))
    await waitUntil(() => h!.tables.of('dim_property_object').length === 300, 10_000, 'every dimension stored')
    for (let i = 0; i < 20 && !h.caughtUp(leads); i++) {
      h.clock.advance(FAST_CONFIG.parking.backoff.maxMs)
      await new Promise((r) => setTimeout(r, 100))
    }
    expect(h.caughtUp(leads)).toBe(true)
    expect(h.dlq(leads)).toEqual([])
    expect(h.tables.of('funnel_daily')).toHaveLength(300)
  })
})
