import { describe, expect, it, vi } from 'vitest'
import type { PairBreaches, ServingGap, ServingGaps } from '../../../../src/application/ports/serving-gaps.port.js'
import { ServingReconciliation, RECONCILED_DAYS, RECONCILE_SETTLE_MS, reconciledDays } from '../../../../src/application/serving/serving-reconciliation.js'
import { InMemoryServingIndex } from '../../../../src/adapters/memory/in-memory-serving-index.js'
import { InMemoryTables } from '../../../../src/adapters/memory/in-memory-tables.js'
import { silentLogger } from '../../../../src/adapters/observability/silent-logger.js'
import type { DeveloperWrite } from '../../../../src/domain/developer-writes.js'
import { dayOf, type DayNumber, type ServingSessionRow, type ServingViewRow } from '../../../../src/domain/serving-links.js'
import { DEFAULT_SERVING_LATENESS_DAYS } from '../../../../src/domain/serving-window.js'
import { at, id } from '../../../../src/testing/contracts/fact-rows.mother.js'

const NOW = at('2026-12-04T12:00:00Z')
/** A lateness window of the days every pass reconciles: no older day in turn. */
const RECENT_ONLY = RECONCILED_DAYS - 1

const viewRow = (keyDeveloperId = id()): ServingViewRow => ({
  keyDeveloperId, propertyObjectViewId: id(), factId: id(), developerId: keyDeveloperId, sessionId: id(), isClosed: true,
  durationSeconds: 30, eventTime: NOW, ingestionTime: NOW,
})
const sessionRow = (keyDeveloperId = id()): ServingSessionRow => ({
  keyDeveloperId, sessionId: id(), factId: id(), durationSeconds: 60, viewerKind: 'User', eventTime: NOW, ingestionTime: NOW,
})

/** Missing rows per day until written: what a store whose lookups missed them would report. */
class FakeGaps implements ServingGaps {
  asked: DayNumber[] = []
  constructor(private readonly byDay: Map<DayNumber, { views: ServingViewRow[]; sessions: ServingSessionRow[] }>, private readonly tables: InMemoryTables) {}
  async missing(day: DayNumber, limit: number, storedBefore: number): Promise<ServingGap> {
    expect(storedBefore).toBe(NOW - RECONCILE_SETTLE_MS)
    this.asked.push(day)
    const want = this.byDay.get(day) ?? { views: [], sessions: [] }
    const views = want.views.filter((v) => !this.tables.serving.views.some((w) => w.factId === v.factId && w.keyDeveloperId === v.keyDeveloperId))
    const sessions = want.sessions.filter((s) => !this.tables.serving.sessions.some((w) => w.factId === s.factId && w.keyDeveloperId === s.keyDeveloperId))
    return { views: views.slice(0, limit), sessions: sessions.slice(0, limit) }
  }
  async breaches(day: DayNumber): Promise<PairBreaches> {
    return { 'view-outside-session': day === dayOf(NOW) ? 2 : 0, 'view-rows-apart': 1 }
  }
}

const none = async (): Promise<PairBreaches> => ({ 'view-outside-session': 0, 'view-rows-apart': 0 })

class CountingIndex extends InMemoryServingIndex {
  writes: DeveloperWrite[] = []
  override async written(writes: readonly DeveloperWrite[]): Promise<void> {
    this.writes.push(...writes)
  }
}

// Issue 44.1: the serving step re-run over the last days heals any row a lookup missed.
describe('ServingReconciliation', () => {
  it('writes what the last days miss, raises the developers\' versions after it, and finds nothing the second time', async () => {
    const tables = new InMemoryTables()
    const index = new CountingIndex(tables)
    const dev = id()
    const today = dayOf(NOW)
    const gaps = new FakeGaps(new Map([
      [today, { views: [viewRow(dev), viewRow(dev)], sessions: [sessionRow(dev)] }],
      [today - 2, { views: [viewRow()], sessions: [] }],
      [today - RECONCILED_DAYS, { views: [viewRow()], sessions: [] }], // outside the days reconciled
    ]), tables)
    const repaired: { views: number; sessions: number }[] = []
    const breaches: PairBreaches[] = []
    const reconciliation = new ServingReconciliation(gaps, index, { now: () => NOW }, silentLogger, 60_000, RECENT_ONLY, { repaired: (r) => repaired.push(r), breaches: (b) => breaches.push(b) })

    expect(await reconciliation.pass()).toEqual({ views: 3, sessions: 1 })
    expect(tables.serving.views).toHaveLength(3)
    expect(tables.serving.sessions).toHaveLength(1)
    expect(index.writes).toContainEqual({ keyDeveloperId: dev, source: 'views', day: today, rows: 2 })
    expect(index.writes).toContainEqual({ keyDeveloperId: dev, source: 'sessions', day: today, rows: 1 })
    expect(repaired.reduce((a, r) => a + r.views + r.sessions, 0)).toBe(4)
    expect(new Set(gaps.asked)).toEqual(new Set([today - 2, today - 1, today]))
    // the days' breaches summed, once per pass
    expect(breaches).toEqual([{ 'view-outside-session': 2, 'view-rows-apart': RECONCILED_DAYS }])

    expect(await reconciliation.pass()).toEqual({ views: 0, sessions: 0 })
  })

  it('a day with more missing than a round takes several rounds', async () => {
    const tables = new InMemoryTables()
    const index = new CountingIndex(tables)
    const today = dayOf(NOW)
    const gaps = new FakeGaps(new Map([[today, { views: Array.from({ length: 25 }, () => viewRow()), sessions: [] }]]), tables)
    const reconciliation = new ServingReconciliation(gaps, index, { now: () => NOW }, silentLogger, 60_000, RECENT_ONLY, undefined, 10)
    expect(await reconciliation.pass()).toEqual({ views: 25, sessions: 0 })
    expect(gaps.asked.filter((d) => d === today)).toHaveLength(3)
  })

  it('rows that stay missing after being written wait for the next pass instead of looping', async () => {
    const tables = new InMemoryTables()
    const index = new CountingIndex(tables)
    const stuck: ServingGaps = { missing: async (_day, limit) => ({ views: Array.from({ length: limit }, () => viewRow()), sessions: [] }), breaches: none }
    const reconciliation = new ServingReconciliation(stuck, index, { now: () => NOW }, silentLogger, 60_000, RECENT_ONLY, undefined, 5)
    const done = await reconciliation.pass()
    expect(done.views).toBeGreaterThan(0)
    expect(done.views).toBeLessThanOrEqual(RECONCILED_DAYS * 20 * 5)
  })

  it('runs every interval from one interval after start, and never with an interval of 0', async () => {
    vi.useFakeTimers()
    try {
      const asked: number[] = []
      const gaps: ServingGaps = { missing: async (day) => (asked.push(day), { views: [], sessions: [] }), breaches: none }
      const tables = new InMemoryTables()
      const every = new ServingReconciliation(gaps, new InMemoryServingIndex(tables), { now: () => NOW }, silentLogger, 60_000, RECENT_ONLY)
      const never = new ServingReconciliation(gaps, new InMemoryServingIndex(tables), { now: () => NOW }, silentLogger, 0, DEFAULT_SERVING_LATENESS_DAYS)
      every.start()
      never.start()
      await vi.advanceTimersByTimeAsync(59_000)
      expect(asked).toEqual([])
      await vi.advanceTimersByTimeAsync(2_000)
      expect(asked).toHaveLength(RECONCILED_DAYS)
      every.stop()
      await vi.advanceTimersByTimeAsync(120_000)
      expect(asked).toHaveLength(RECONCILED_DAYS)
    } finally {
      vi.useRealTimers()
    }
  })

  it('reaches every day of the lateness window in turn: a miss among facts 20 days late is written within 28 passes (issue 63.4)', async () => {
    // a day's worth of minutes: today stays, every older day of the window comes once in 28 turns
    const interval = 60_000
    const today = dayOf(NOW)
    const older = new Map<number, number>()
    for (let k = 0; k < DEFAULT_SERVING_LATENESS_DAYS - 2; k++) {
      const days = reconciledDays(NOW + k * interval, interval, DEFAULT_SERVING_LATENESS_DAYS)
      expect(days.slice(-RECONCILED_DAYS)).toEqual([today - 2, today - 1, today])
      for (const d of days.slice(0, -RECONCILED_DAYS)) older.set(d, (older.get(d) ?? 0) + 1)
    }
    expect([...older.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: DEFAULT_SERVING_LATENESS_DAYS - 2 }, (_, i) => today - DEFAULT_SERVING_LATENESS_DAYS + i))
    expect([...older.values()].every((n) => n === 1)).toBe(true)
    // across midnight a day keeps its turn: the same day 28 turns later
    const hourly = 3_600_000
    const day20 = (k: number) => reconciledDays(NOW + k * hourly, hourly, DEFAULT_SERVING_LATENESS_DAYS)[0]
    const turns = Array.from({ length: 60 }, (_, k) => k).filter((k) => day20(k) === today - 20)
    expect(turns).toHaveLength(2)
    expect((turns[1] as number) - (turns[0] as number)).toBe(DEFAULT_SERVING_LATENESS_DAYS - 2)

    const interval2 = hourly

    const tables = new InMemoryTables()
    const late = viewRow()
    const gaps: ServingGaps = {
      missing: async (day) => ({ views: day === today - 20 && !tables.serving.views.some((v) => v.factId === late.factId) ? [late] : [], sessions: [] }),
      breaches: none,
    }
    let now = NOW
    const reconciliation = new ServingReconciliation(gaps, new InMemoryServingIndex(tables), { now: () => now }, silentLogger, interval2, DEFAULT_SERVING_LATENESS_DAYS)
    let passes = 0
    while (tables.serving.views.length === 0 && passes < DEFAULT_SERVING_LATENESS_DAYS - 2) {
      await reconciliation.pass()
      passes++
      now += interval2
    }
    expect(tables.serving.views, `after ${passes} passes`).toHaveLength(1)
  })
})
