import { afterEach, describe, expect, it } from 'vitest'
import { batchDue, delayToNextTick, tickPeriodMs } from '../../../src/application/engine/flush-due.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// Issue 49: a low-rate consumer's records wait about a second, not the whole flush interval, while
// a consumer whose batches fill soon keeps inserting full batches; slow consumers flush together.
const sessions = sessionEndedHandler()
let h: Harness
afterEach(async () => h?.stopAll())

describe('batchDue', () => {
  const config = { flushIntervalMs: 5000, slowBatchFlushMs: 1000 }
  /** A batch opened `age` ms before `now`, now 10 ms past a boundary of the bound unless given. */
  const due = (age: number, rows: number, c: Parameters<typeof batchDue>[4] = config, now = 100_010) => batchDue(now - age, now, rows, 1000, c)

  it('is due at the flush interval whatever the batch holds', () => {
    expect(due(5000, 999)).toBe(true)
    expect(due(4990, 999, config, 100_500)).toBe(false)
  })

  it('is due at a boundary of the slow-batch bound when the rate so far would not fill the batch within another bound', () => {
    expect(due(1000, 60)).toBe(true) // 60/s
    expect(due(1000, 200)).toBe(true) // 200/s: full at 5 s
    expect(due(1000, 499)).toBe(true)
    expect(due(1000, 500)).toBe(false) // 500/s: full in another second, wait for it
    expect(due(1000, 750)).toBe(false)
    expect(due(1500, 590)).toBe(true) // the rate is re-read at every boundary
    expect(due(1500, 700)).toBe(false)
    expect(due(20, 1)).toBe(true) // opened 20 ms before the boundary: 1 record in 20 ms would not fill it within a second
    expect(due(20, 30)).toBe(false) // 30 records in 20 ms would
  })

  it('is not due between two boundaries, however old (below the interval) and slow', () => {
    expect(due(999, 1, config, 100_999)).toBe(false)
    expect(due(400, 1, config, 100_900)).toBe(false)
    expect(due(1001, 1, config, 100_999)).toBe(true)
  })

  it('puts every consumer of a process on the same boundaries', () => {
    const opened = [100_020, 100_300, 100_990]
    expect(opened.map((o) => batchDue(o, 100_999, 1, 1000, config))).toEqual([false, false, false])
    expect(opened.map((o) => batchDue(o, 101_001, 1, 1000, config))).toEqual([true, true, true])
  })

  it('is never early without the bound, or with 0', () => {
    expect(due(4999, 1, { flushIntervalMs: 5000 })).toBe(false)
    expect(due(4999, 1, { flushIntervalMs: 5000, slowBatchFlushMs: 0 })).toBe(false)
  })

  it('ticks on the boundaries', () => {
    expect(tickPeriodMs(config)).toBe(250)
    expect(tickPeriodMs({ flushIntervalMs: 500, slowBatchFlushMs: 1000 })).toBe(125)
    expect(tickPeriodMs({ flushIntervalMs: 5000 })).toBe(250)
    expect(delayToNextTick(100_010, 250)).toBe(241)
    expect(delayToNextTick(100_000, 250)).toBe(251)
  })
})

describe('slow batches in the engine (in-memory adapters)', () => {
  /** Publishes `n` records and returns how long after it the first insert came. */
  const firstInsertAfter = async (n: number, slowBatchFlushMs?: number) => {
    h = new Harness([sessions], { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs: 2000, ...(slowBatchFlushMs ? { slowBatchFlushMs } : {}) })
    const inserts: number[] = []
    h.sink = { append: async (rows: readonly FactRow[], at: number) => (inserts.push(Date.now()), h.store.append(rows, at)) }
    await h.start()
    const sent = Date.now()
    h.publish(...Array.from({ length: n }, () => binaryRecord(sessions.topic, sessionEndedPayload())))
    await waitUntil(() => inserts.length > 0, 5000, 'an insert')
    await waitUntil(() => h.caughtUp(sessions), 5000, 'every offset committed')
    return inserts[0]! - sent
  }

  it('inserts a lone record after the slow-batch bound, not the flush interval', async () => {
    expect(await firstInsertAfter(1, 200)).toBeLessThan(1000)
  })

  it('waits the flush interval without the bound', async () => {
    expect(await firstInsertAfter(1)).toBeGreaterThanOrEqual(1900)
  })

  it('waits while the rate so far would fill the batch within the interval', async () => {
    // 85 of 100 rows at once: they would fill the batch within another 200 ms until it is 1,133 ms old
    const after = await firstInsertAfter(85, 200)
    expect(after).toBeGreaterThanOrEqual(1100)
    expect(after).toBeLessThan(1900)
  })

  it('flushes slow consumers at the same boundary, whenever within it their records came', async () => {
    const a = sessionEndedHandler('topic-a', 'group-a')
    const b = sessionEndedHandler('topic-b', 'group-b')
    h = new Harness([a, b], { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs: 5000, slowBatchFlushMs: 400 })
    const inserts = new Map<string, number>()
    h.sink = { append: async (rows: readonly FactRow[], at: number) => {
      for (const r of rows) if (r.table === 'session_facts') inserts.set(r.row.sessionId, performance.now())
      return h.store.append(rows, at)
    } }
    await h.start()
    const first = binaryRecord(a.topic, sessionEndedPayload())
    const second = binaryRecord(b.topic, sessionEndedPayload())
    h.publish(first)
    await new Promise((r) => setTimeout(r, 150))
    h.publish(second)
    await waitUntil(() => inserts.size === 2, 5000, 'both inserts')
    const [x, y] = [...inserts.values()]
    expect(Math.abs(x! - y!)).toBeLessThan(40)
  })
})
