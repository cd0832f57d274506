import { describe, expect, it } from 'vitest'
import { BoundedReadModel } from '../../../src/application/read/bounded-read-model.js'
import { ReadsOverloaded, ReadTimedOut, type ReadModel, type SessionMetricsTotals } from '../../../src/application/ports/read-model.port.js'
import { getDeveloperSessionMetrics } from '../../../src/application/read/get-developer-session-metrics.js'
import type { Guid } from '../../../src/domain/guid.js'
import type { Instant } from '../../../src/domain/instant.js'

// Issue 38.4: at most N reads reach the store at once, M more wait, the next is refused.
const TOTALS: SessionMetricsTotals = {
  sessions: { sessions: 1, guestSessions: 1, userSessions: 0, totalDurationSeconds: 1, minDurationSeconds: 1, maxDurationSeconds: 1 },
  views: { views: 1, closedViews: 1, totalViewSeconds: 1 },
}
const DEV = '6f1c0e2a-4b7d-4e5f-8a9b-0c1d2e3f4a5b' as Guid
const PERIOD = { from: 0 as Instant, to: 1 as Instant }

/** A store whose reads finish when the test says, counting how many run at once. */
const heldStore = () => {
  const pending: { resolve: () => void; reject: (e: Error) => void }[] = []
  let running = 0
  let peak = 0
  const hold = <T>(value: T) => new Promise<T>((resolve, reject) => {
    running += 1
    peak = Math.max(peak, running)
    pending.push({ resolve: () => (running -= 1, resolve(value)), reject: (e) => (running -= 1, reject(e)) })
  })
  const store: ReadModel = {
    sessionMetrics: () => hold(TOTALS),
    dimensionNames: () => hold(new Map()),
    funnelCounts: () => hold({} as never),
  }
  return { store, pending, peak: () => peak, running: () => running }
}
const tick = () => new Promise((r) => setImmediate(r))

describe('BoundedReadModel', () => {
  it('runs at most maxConcurrent reads, queues maxQueued, refuses the next at once, and serves the queue in order', async () => {
    const s = heldStore()
    const bounded = new BoundedReadModel(s.store, { maxConcurrent: 2, maxQueued: 3 })
    const reads = Array.from({ length: 5 }, () => bounded.sessionMetrics(DEV, PERIOD))
    await tick()
    expect(s.running()).toBe(2)
    await expect(bounded.sessionMetrics(DEV, PERIOD)).rejects.toBeInstanceOf(ReadsOverloaded)
    while (s.pending.length > 0) {
      s.pending.shift()?.resolve()
      await tick()
    }
    expect(await Promise.all(reads)).toEqual(Array(5).fill(TOTALS))
    expect(s.peak()).toBe(2)
    // every slot free again: two run at once
    const again = [bounded.dimensionNames('project', []), bounded.dimensionNames('project', [])]
    await tick()
    expect(s.running()).toBe(2)
    s.pending.splice(0).forEach((p) => p.resolve())
    await Promise.all(again)
  })

  it('a failed read frees its slot for the next', async () => {
    const s = heldStore()
    const bounded = new BoundedReadModel(s.store, { maxConcurrent: 1, maxQueued: 1 })
    const first = bounded.sessionMetrics(DEV, PERIOD)
    const second = bounded.sessionMetrics(DEV, PERIOD)
    await tick()
    s.pending.shift()?.reject(new Error('store down'))
    await expect(first).rejects.toThrow('store down')
    await tick()
    expect(s.running()).toBe(1)
    s.pending.shift()?.resolve()
    expect(await second).toEqual(TOTALS)
    expect(s.running()).toBe(0)
  })

  it('with no queue, a read beyond the running ones is refused', async () => {
    const s = heldStore()
    const bounded = new BoundedReadModel(s.store, { maxConcurrent: 1, maxQueued: 0 })
    const first = bounded.sessionMetrics(DEV, PERIOD)
    await expect(bounded.sessionMetrics(DEV, PERIOD)).rejects.toBeInstanceOf(ReadsOverloaded)
    s.pending.shift()?.resolve()
    await first
  })
  it('a session-metrics read takes one slot: its sessions and views in one turn', async () => {
    const s = heldStore()
    const bounded = new BoundedReadModel(s.store, { maxConcurrent: 1, maxQueued: 0 })
    const metrics = getDeveloperSessionMetrics(bounded)({ developerId: DEV }, PERIOD)
    await tick()
    expect(s.running()).toBe(1)
    s.pending.shift()?.resolve()
    expect(await metrics).toEqual({ _tag: 'Right', right: { ...TOTALS.sessions, avgDurationSeconds: 1, views: TOTALS.views } })
    expect(s.running()).toBe(0)
  })
})

// Issue 46.2: a read whose caller was answered 503 at the route's deadline ran later from the
// queue anyway (up to 64 × 10 s of store work for callers told to retry). Past maxWaitMs in the
// queue it is dropped, never reaches the store, and frees its place in the queue.
describe('BoundedReadModel with a wait limit', () => {
  it('drops a read still queued after maxWaitMs without running it, and the queue goes on', async () => {
    const s = heldStore()
    let reached = 0
    const counted: ReadModel = { ...s.store, sessionMetrics: (d, p) => (reached++, s.store.sessionMetrics(d, p)) }
    const bounded = new BoundedReadModel(counted, { maxConcurrent: 1, maxQueued: 1, maxWaitMs: 50 })
    const running = bounded.sessionMetrics(DEV, PERIOD)
    const late = bounded.sessionMetrics(DEV, PERIOD)
    await expect(late).rejects.toBeInstanceOf(ReadTimedOut)
    // its place in the queue is free again
    const next = bounded.sessionMetrics(DEV, PERIOD)
    s.pending.shift()?.resolve()
    await running
    await tick()
    expect(reached).toBe(2)
    s.pending.shift()?.resolve()
    expect(await next).toEqual(TOTALS)
    expect(reached).toBe(2)
  })
})
