import { afterEach, describe, expect, it } from 'vitest'
import { batchDue } from '../../../src/application/engine/flush-due.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// Issue 49: a low-rate consumer's records wait about a second, not the whole flush interval, while
// a consumer whose batches fill soon keeps inserting full batches.
const sessions = sessionEndedHandler()
let h: Harness
afterEach(async () => h?.stopAll())

describe('batchDue', () => {
  const config = { flushIntervalMs: 5000, slowBatchFlushMs: 1000 }

  it('is due at the flush interval whatever the batch holds', () => {
    expect(batchDue(5000, 999, 1000, config)).toBe(true)
    expect(batchDue(4990, 999, 1000, config)).toBe(false)
  })

  it('is due at the slow-batch bound when the rate so far would not fill the batch within as long again', () => {
    expect(batchDue(999, 1, 1000, config)).toBe(false)
    expect(batchDue(1000, 60, 1000, config)).toBe(true) // 60/s
    expect(batchDue(1000, 200, 1000, config)).toBe(true) // 200/s: full at 5 s
    expect(batchDue(1000, 499, 1000, config)).toBe(true)
    expect(batchDue(1000, 500, 1000, config)).toBe(false) // 500/s: full in another second, wait for it
    expect(batchDue(1000, 750, 1000, config)).toBe(false)
    expect(batchDue(1500, 590, 1000, config)).toBe(true) // the rate is re-read at every tick
    expect(batchDue(1500, 700, 1000, config)).toBe(false)
  })

  it('is never early without the bound, or with 0', () => {
    expect(batchDue(4999, 1, 1000, { flushIntervalMs: 5000 })).toBe(false)
    expect(batchDue(4999, 1, 1000, { flushIntervalMs: 5000, slowBatchFlushMs: 0 })).toBe(false)
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
})
