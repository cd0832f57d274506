import { afterEach, describe, expect, it } from 'vitest'
import { leadCreatedHandler } from '../../../src/application/handlers/lead-created.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, leadCreatedPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

const sessions = sessionEndedHandler()
const leads = leadCreatedHandler()
const dims = propertyObjectUpsertedHandler()
let h: Harness

afterEach(async () => h?.stopAll())

const distinctFactIds = () => new Set(h.tables.of('session_facts').map((r) => r.fact.row.factId))
const manySessions = (n: number) => Array.from({ length: n }, () => binaryRecord(sessions.topic, sessionEndedPayload()))

describe('consumer engine under failure (in-memory adapters)', () => {
  it('store outage: nothing committed while the store is down, nothing dead-lettered, all rows once after it returns', async () => {
    h = new Harness([sessions])
    await h.start()
    h.store.down = true
    h.publish(...manySessions(250))
    await waitUntil(() => h.engine(sessions.name).stats.sinkRetries >= 4, 5000, 'retries')
    expect(h.broker.log.committedOffset(sessions.groupId, { topic: sessions.topic, partition: 0 })).toBe(0)
    h.store.down = false
    await waitUntil(() => h.caughtUp(sessions))
    expect(distinctFactIds().size).toBe(250)
    expect(h.dlq(sessions)).toHaveLength(0)
    expect(await h.metric('dev_stats_sink_retries_total')).toBeGreaterThanOrEqual(4)
  })

  it('crash between insert and commit: the batch comes again and collapses to one logical row per event', async () => {
    h = new Harness([sessions])
    const records = manySessions(300)
    let crashed = false
    h.sink = {
      append: async (rows: readonly FactRow[], at: number) => {
        await h.store.append(rows, at)
        if (!crashed) {
          crashed = true
          await h.kill(sessions.name) // dies after the insert is confirmed, before any commit
        }
      },
    }
    await h.start()
    h.publish(...records)
    await waitUntil(() => crashed, 5000, 'crash')
    expect(h.broker.log.committedOffset(sessions.groupId, { topic: sessions.topic, partition: 0 })).toBe(0)
    await h.start(sessions.name)
    await waitUntil(() => h.caughtUp(sessions))
    const rows = h.tables.of('session_facts')
    expect(rows.length).toBeGreaterThan(300) // the redelivered batch was inserted again…
    expect(distinctFactIds().size).toBe(300) // …and collapses by FactId
  })

  it('repeated kills at random points lose nothing', async () => {
    h = new Harness([sessions])
    const records = manySessions(2000)
    h.publish(...records)
    for (let i = 0; i < 5; i++) {
      await h.start(sessions.name)
      await new Promise((r) => setTimeout(r, 5 + Math.random() * 30))
      await h.kill(sessions.name)
    }
    await h.start(sessions.name)
    await waitUntil(() => h.caughtUp(sessions), 10_000)
    expect(distinctFactIds().size).toBe(2000)
  })

  it('a process that dies while a message is parked loses nothing: the parked copy is redelivered and counted', async () => {
    h = new Harness([leads, dims])
    await h.start()
    const po = path()
    h.publish(binaryRecord(leads.topic, leadCreatedPayload({ OriginPropertyObjectId: po.PropertyObjectId })))
    await waitUntil(() => h.engine(leads.name).parkedInMemory === 1, 5000, 'parked copy read back, not due yet')
    expect(h.broker.records(`${leads.groupId}.retry`)).toHaveLength(1)
    await h.kill(leads.name)
    h.publish(binaryRecord(dims.topic, propertyObjectUpsertedPayload(po)))
    await waitUntil(() => h.caughtUp(dims))
    h.clock.advance(60_000)
    await h.start(leads.name)
    await waitUntil(() => h.caughtUp(leads), 5000, 'parked copy processed')
    expect(h.tables.of('funnel_daily').map((r) => r.fact.row.propertyObjectId)).toEqual([po.PropertyObjectId])
  })

  it('a failed dead-letter publish is retried and the offset waits for it', async () => {
    h = new Harness([sessions])
    await h.start()
    h.publish(binaryRecord(sessions.topic, sessionEndedPayload({ DurationSeconds: -5 })))
    h.broker.failNextPublishes = 3
    await waitUntil(() => h.dlq(sessions).length === 1 && h.caughtUp(sessions), 5000, 'dead letter')
    expect(h.engine(sessions.name).stats.sinkRetries).toBe(3)
  })

  it('flushes at maxBatchRows: no insert carries more rows than the limit', async () => {
    h = new Harness([sessions], { maxBatchRows: 100, flushIntervalMs: 60_000, sinkBackoff: { initialMs: 5, maxMs: 5 }, parking: { maxAttempts: 2, backoff: { initialMs: 10, maxMs: 10 } } })
    const sizes: number[] = []
    h.sink = { append: async (rows, at) => { sizes.push(rows.length); await h.store.append(rows, at) } }
    await h.start()
    h.publish(...manySessions(450))
    await waitUntil(() => distinctFactIds().size === 400, 5000, '4 full batches') // the last 50 wait for the timer
    expect(sizes.every((s) => s <= 100)).toBe(true)
    await waitUntil(() => { void h.engine(sessions.name).drain(); return distinctFactIds().size === 450 }, 5000, 'drained')
    expect(sizes.every((s) => s <= 100)).toBe(true)
  })

  it('flushes a partial batch after flushIntervalMs', async () => {
    h = new Harness([sessions], { maxBatchRows: 1000, flushIntervalMs: 50, sinkBackoff: { initialMs: 5, maxMs: 5 }, parking: { maxAttempts: 2, backoff: { initialMs: 10, maxMs: 10 } } })
    await h.start()
    h.publish(...manySessions(3))
    await waitUntil(() => distinctFactIds().size === 3, 2000, 'timer flush')
  })

  it('the flush interval runs from the first record taken, not from the last flush', async () => {
    h = new Harness([sessions], { maxBatchRows: 1000, flushIntervalMs: 400, sinkBackoff: { initialMs: 5, maxMs: 5 }, parking: { maxAttempts: 2, backoff: { initialMs: 10, maxMs: 10 } } })
    await h.start()
    await new Promise((r) => setTimeout(r, 600)) // idle for longer than the interval
    h.publish(...manySessions(1))
    await new Promise((r) => setTimeout(r, 150))
    expect(distinctFactIds().size).toBe(0) // still batching
    await waitUntil(() => distinctFactIds().size === 1, 3000, 'timer flush')
  })

  it('stop during a store outage does not wait out the backoff: the batch is abandoned uncommitted', async () => {
    h = new Harness([sessions], { ...FAST_CONFIG, sinkBackoff: { initialMs: 30_000, maxMs: 60_000 } })
    await h.start()
    h.store.down = true
    h.publish(...manySessions(5))
    await waitUntil(() => h.engine(sessions.name).stats.sinkRetries >= 1, 5000, 'first retry')
    const started = Date.now()
    await h.stopAll()
    expect(Date.now() - started).toBeLessThan(2000)
    const committed = [0, 1, 2].map((partition) => h.broker.log.committedOffset(sessions.groupId, { topic: sessions.topic, partition }))
    expect(committed).toEqual([0, 0, 0])
  })
})
