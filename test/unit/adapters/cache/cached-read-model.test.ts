import { describe, expect, it } from 'vitest'
import type { DataVersionReader, ReadSource } from '../../../../src/application/ports/data-version.port.js'
import type { Period, ReadModel, SessionMetricsTotals } from '../../../../src/application/ports/read-model.port.js'
import { CachedReadModel } from '../../../../src/adapters/cache/cached-read-model.js'
import { freshReads } from '../../../../src/adapters/cache/fresh-reads.js'
import type { Guid } from '../../../../src/domain/guid.js'
import type { Instant } from '../../../../src/domain/instant.js'

const D1 = '11111111-1111-4111-8111-111111111111' as Guid
const D2 = '22222222-2222-4222-8222-222222222222' as Guid
const YEAR: Period = { from: Date.UTC(2026, 0, 1) as Instant, to: Date.UTC(2027, 0, 1) as Instant }
const MONTH: Period = { from: Date.UTC(2026, 5, 1) as Instant, to: Date.UTC(2026, 6, 1) as Instant }

const totals = (sessions: number): SessionMetricsTotals => ({
  sessions: { sessions, guestSessions: sessions, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0 },
  views: { views: sessions, closedViews: 0, totalViewSeconds: 0 },
})

/** A store whose answers and versions the test moves; counts the queries that reach it. */
const fakeStore = (maxEntries = 100, maxStaleMs = 0) => {
  const state = { now: 0, sessions: 1, views: 'v1', sessionsVersion: 's1', funnel: 'f1', queries: 0, probes: 0, fail: false }
  const inner: ReadModel = {
    sessionMetrics: async () => {
      state.queries++
      await Promise.resolve()
      if (state.fail) throw new Error('store down')
      return totals(state.sessions)
    },
    dimensionNames: async (_level, ids) => (state.queries++, new Map(ids.map((i) => [i, `name of ${i}`]))),
    funnelCounts: async () => {
      state.queries++
      return { Views: state.sessions, Favorites: 0, Selections: 0, Leads: 0, Bookings: 0, BookingsPaid: 0, Deals: 0, DealsCompleted: 0 }
    },
  }
  const versions: DataVersionReader = {
    versions: async () => {
      state.probes++
      return new Map<ReadSource, string>([
        ['views', state.views],
        ['sessions', state.sessionsVersion],
        ['funnel', state.funnel],
      ])
    },
  }
  const clock = { now: () => state.now }
  return { state, inner, cached: new CachedReadModel(inner, versions, clock, { maxEntries, maxStaleMs }) }
}

describe('the read cache', () => {
  it('answers a repeated read from memory while the versions of its sources stay the same', async () => {
    const { state, cached } = fakeStore()
    expect(await cached.sessionMetrics(D1, YEAR)).toEqual(totals(1))
    state.sessions = 7 // a change the versions do not show would be a broken version reader; here it proves the reuse
    expect(await cached.sessionMetrics(D1, YEAR)).toEqual(totals(1))
    expect(state.queries).toBe(1)
  })

  it('reads again once a source it depends on changed, and not for a source it does not read', async () => {
    const { state, cached } = fakeStore()
    await cached.sessionMetrics(D1, YEAR)
    state.sessions = 2
    state.funnel = 'f2'
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    state.sessionsVersion = 's2'
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(2)
    state.sessions = 3
    state.views = 'v2'
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(3)
    expect(state.queries).toBe(3)
  })

  it('keeps developers, periods and filters apart', async () => {
    const { state, cached } = fakeStore()
    await cached.sessionMetrics(D1, YEAR)
    await cached.sessionMetrics(D2, YEAR)
    await cached.sessionMetrics(D1, MONTH)
    const range = { fromDate: '2026-01-01', toDate: '2026-12-31' }
    await cached.funnelCounts(D1, range, {})
    await cached.funnelCounts(D1, range, { projectId: D2 })
    await cached.funnelCounts(D1, range, { buildingId: D2 })
    await cached.dimensionNames('developer', [D1])
    await cached.dimensionNames('project', [D1])
    expect(state.queries).toBe(8)
    await cached.funnelCounts(D1, range, { projectId: D2 })
    expect(state.queries).toBe(8)
  })

  it('shares one query among identical concurrent reads', async () => {
    const { state, cached } = fakeStore()
    const answers = await Promise.all(Array.from({ length: 10 }, () => cached.sessionMetrics(D1, YEAR)))
    expect(answers).toEqual(Array.from({ length: 10 }, () => totals(1)))
    expect(state.queries).toBe(1)
    expect(state.probes).toBe(2) // the first read's, then one shared by the nine that arrived while it ran
  })

  it('does not keep a failure', async () => {
    const { state, cached } = fakeStore()
    state.fail = true
    await expect(cached.sessionMetrics(D1, YEAR)).rejects.toThrow('store down')
    state.fail = false
    expect(await cached.sessionMetrics(D1, YEAR)).toEqual(totals(1))
    expect(state.queries).toBe(2)
  })

  it('keeps at most maxEntries answers, dropping the least recently used', async () => {
    const { state, cached } = fakeStore(2)
    await cached.sessionMetrics(D1, YEAR)
    await cached.sessionMetrics(D2, YEAR)
    await cached.sessionMetrics(D1, YEAR) // D1 is now the most recent
    await cached.sessionMetrics(D1, MONTH) // drops D2
    expect(state.queries).toBe(3)
    await cached.sessionMetrics(D1, YEAR)
    expect(state.queries).toBe(3)
    await cached.sessionMetrics(D2, YEAR)
    expect(state.queries).toBe(4)
  })

  it('never answers from before the read arrived: a write seen by the store before the read is in the answer', async () => {
    const { state, cached } = fakeStore()
    await cached.sessionMetrics(D1, YEAR)
    state.sessions = 5
    state.sessionsVersion = 's5'
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(5)
  })

  it('with maxStaleMs, serves an answer confirmed that recently without asking the store, then asks again', async () => {
    const { state, cached } = fakeStore(100, 10_000)
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    state.sessions = 2
    state.sessionsVersion = 's2'
    state.now = 9_999
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    expect(state.probes).toBe(1)
    state.now = 10_000
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(2)
    expect(state.queries).toBe(2)
  })

  it('with maxStaleMs, an unchanged answer confirmed by a probe is good for another maxStaleMs from that probe', async () => {
    const { state, cached } = fakeStore(100, 10_000)
    await cached.sessionMetrics(D1, YEAR)
    state.now = 15_000
    await cached.sessionMetrics(D1, YEAR) // probed: unchanged
    state.sessions = 3
    state.sessionsVersion = 's3'
    state.now = 24_999
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    expect(state.probes).toBe(2)
    state.now = 25_000
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(3)
    expect(state.queries).toBe(2)
  })
})

describe('the read cache with per-developer versions', () => {
  /** The store of fakeStore whose versions come per developer, and whose table versions move with every write. */
  const perDeveloperStore = () => {
    const base = fakeStore()
    const tokens = new Map<Guid, string>([[D1, 'd1-a'], [D2, 'd2-a']])
    const asked: Guid[][] = []
    const versions: DataVersionReader = {
      versions: async () => new Map<ReadSource, string>([['views', `${Math.random()}`]]),
      developerVersions: async (ids) => {
        asked.push([...ids])
        return new Map(ids.map((d) => [d, new Map<ReadSource, string>([['views', tokens.get(d) ?? ''], ['sessions', tokens.get(d) ?? '']])]))
      },
    }
    return { ...base, tokens, asked, cached: new CachedReadModel(base.inner, versions, { now: () => base.state.now }, { maxEntries: 100, maxStaleMs: 0 }) }
  }

  it("another developer's write leaves an answer cached; the developer's own write is in the very next read", async () => {
    const { state, tokens, cached } = perDeveloperStore()
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    state.sessions = 5
    tokens.set(D2, 'd2-b')
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(1)
    expect(state.queries).toBe(1)
    tokens.set(D1, 'd1-b')
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(5)
    expect(state.queries).toBe(2)
  })

  it('reads a question found changed at its last probe from the store without a probe for 30 s, then probes again', async () => {
    const { state, tokens, asked, cached } = perDeveloperStore()
    await cached.sessionMetrics(D1, YEAR)
    tokens.set(D1, 'd1-b')
    state.sessions = 2
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(2)
    tokens.set(D1, 'd1-c')
    state.sessions = 3
    state.now = 29_999
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(3)
    expect([asked.length, state.queries]).toEqual([2, 3])
    state.now = 30_000
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(3)
    expect([asked.length, state.queries]).toEqual([3, 4])
    // no write since: once 30 s have passed, the probe finds the answer current
    state.now = 60_000
    state.sessions = 9 // a change the tokens do not show: here it proves the answer came from memory
    expect((await cached.sessionMetrics(D1, YEAR)).sessions.sessions).toBe(3)
    expect([asked.length, state.queries]).toEqual([4, 4])
  })

  it('reads of several developers at once share one probe', async () => {
    const { asked, cached } = perDeveloperStore()
    await Promise.all([cached.sessionMetrics(D1, YEAR), cached.sessionMetrics(D2, YEAR), cached.sessionMetrics(D1, MONTH)])
    expect(asked).toEqual([[D1], [D2, D1]])
  })
})

describe('fresh reads', () => {
  const deferred = () => {
    let resolve!: (v: number) => void
    const promise = new Promise<number>((r) => (resolve = r))
    return { promise, resolve }
  }

  it('gives each caller a call started after its own, with one call in flight and waiting callers sharing the next', async () => {
    const calls: ReturnType<typeof deferred>[] = []
    const read = freshReads(() => {
      const d = deferred()
      calls.push(d)
      return d.promise
    })
    const first = read()
    const second = read()
    const third = read()
    expect(calls).toHaveLength(1)
    calls[0]?.resolve(1)
    expect(await first).toBe(1)
    await new Promise((r) => setImmediate(r))
    expect(calls).toHaveLength(2)
    calls[1]?.resolve(2)
    expect(await second).toBe(2)
    expect(await third).toBe(2)
    const fourth = read()
    expect(calls).toHaveLength(3)
    calls[2]?.resolve(3)
    expect(await fourth).toBe(3)
  })

  it('passes a failure to its callers and starts afresh after it', async () => {
    let n = 0
    const read = freshReads(async () => {
      n++
      if (n === 1) throw new Error('probe failed')
      return n
    })
    await expect(read()).rejects.toThrow('probe failed')
    expect(await read()).toBe(2)
  })
})
