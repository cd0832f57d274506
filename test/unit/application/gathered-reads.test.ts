import { describe, expect, it } from 'vitest'
import { BoundedReadModel } from '../../../src/application/read/bounded-read-model.js'
import { GatheredReads } from '../../../src/application/read/gathered-reads.js'
import { ReadsOverloaded, type DateRange, type HierarchyFilter, type ReadModel, type StageCounts } from '../../../src/application/ports/read-model.port.js'
import { FUNNEL_STAGES } from '../../../src/domain/funnel.js'
import type { Guid } from '../../../src/domain/guid.js'

const YEAR: DateRange = { fromDate: '2026-01-01', toDate: '2026-12-31' }
const JUNE: DateRange = { fromDate: '2026-06-01', toDate: '2026-06-30' }
const dev = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}` as Guid
/** Counts that name the developer and the read that answered it. */
const counts = (developerId: Guid, read: number): StageCounts => Object.fromEntries(FUNNEL_STAGES.map((s, i) => [s, i === 0 ? Number(developerId.slice(-4)) : read])) as StageCounts
const tick = () => new Promise((r) => setImmediate(r))

interface Call {
  readonly ids: readonly Guid[]
  readonly range?: DateRange
  readonly filter?: HierarchyFilter
  finish(fail?: Error): void
}

/** A store whose funnel reads finish when the test says; the n-th read's answers carry n. */
const heldStore = () => {
  const calls: Call[] = []
  const hold = <T>(ids: readonly Guid[], answer: (n: number) => T, range?: DateRange, filter?: HierarchyFilter) =>
    new Promise<T>((resolve, reject) => {
      const n = calls.length + 1
      calls.push({ ids, range, filter, finish: (fail) => (fail ? reject(fail) : resolve(answer(n))) })
    })
  const store: ReadModel = {
    sessionMetrics: () => Promise.reject(new Error('not read here')),
    dimensionNames: (level, ids) => hold(ids, (n) => new Map(ids.filter((id) => id !== dev(404)).map((id) => [id, id === dev(0) ? null : `${level} ${id.slice(-1)} #${n}`])), { fromDate: level, toDate: level }),
    funnelCounts: (id, range, filter) => hold([id], (n) => counts(id, n), range, filter),
    funnelCountsOfDevelopers: (ids, range) => hold(ids, (n) => new Map(ids.map((id) => [id, counts(id, n)])), range),
  }
  return { store, calls }
}

describe('GatheredReads', () => {
  it('refuses a read of a kind past as many waiting callers as the bounds admit, names and funnels alike (issue 64.2)', async () => {
    const s = heldStore()
    const gathered = new GatheredReads(s.store, 2)
    const waiting = [gathered.funnelCounts(dev(1), YEAR, {}), gathered.funnelCounts(dev(2), YEAR, {}), gathered.dimensionNames('project', [dev(3)]), gathered.dimensionNames('project', [dev(7)])]
    await tick()
    await expect(gathered.funnelCounts(dev(4), YEAR, {})).rejects.toBeInstanceOf(ReadsOverloaded)
    await expect(gathered.dimensionNames('project', [dev(5)])).rejects.toBeInstanceOf(ReadsOverloaded)
    // another kind has room of its own
    waiting.push(gathered.funnelCounts(dev(8), JUNE, {}))
    for (let i = 0; i < 6; i++) {
      s.calls.forEach((c) => c.finish())
      await tick()
    }
    await Promise.all(waiting)
    // answered callers leave room again
    const again = gathered.funnelCounts(dev(6), YEAR, {})
    await tick()
    s.calls[s.calls.length - 1]?.finish()
    expect(await again).toEqual(counts(dev(6), s.calls.length))
  })

  it("answers a lone read at once; the reads arriving while it runs become one store read of all their developers, started after them", async () => {
    const s = heldStore()
    const gathered = new GatheredReads(s.store)
    const first = gathered.funnelCounts(dev(1), YEAR, {})
    await tick()
    expect(s.calls.map((c) => c.ids)).toEqual([[dev(1)]])
    const later = [dev(2), dev(3), dev(1), dev(4)].map((d) => gathered.funnelCounts(d, YEAR, {}))
    await tick()
    expect(s.calls).toHaveLength(1)
    s.calls[0]?.finish()
    expect(await first).toEqual(counts(dev(1), 1))
    await tick()
    expect(s.calls.map((c) => c.ids)).toEqual([[dev(1)], [dev(2), dev(3), dev(1), dev(4)]])
    s.calls[1]?.finish()
    // dev(1)'s second read is answered by the read started after it, not by the first
    expect(await Promise.all(later)).toEqual([dev(2), dev(3), dev(1), dev(4)].map((d) => counts(d, 2)))
    expect(gathered.kindsInFlight).toBe(0)
  })

  it('gathers per range, and passes filtered reads straight through', async () => {
    const s = heldStore()
    const gathered = new GatheredReads(s.store)
    const reads = [gathered.funnelCounts(dev(1), YEAR, {}), gathered.funnelCounts(dev(2), JUNE, {}), gathered.funnelCounts(dev(3), YEAR, { projectId: dev(9) })]
    await tick()
    expect(s.calls.map((c) => [c.ids, c.range, c.filter])).toEqual([
      [[dev(1)], YEAR, undefined],
      [[dev(2)], JUNE, undefined],
      [[dev(3)], YEAR, { projectId: dev(9) }],
    ])
    expect(gathered.kindsInFlight).toBe(2)
    s.calls.forEach((c) => c.finish())
    expect(await Promise.all(reads)).toEqual([counts(dev(1), 1), counts(dev(2), 2), counts(dev(3), 3)])
    await tick()
    expect(gathered.kindsInFlight).toBe(0)
  })

  it('a failed store read fails every read gathered into it, keeps nothing, and the next read asks again', async () => {
    const s = heldStore()
    const gathered = new GatheredReads(s.store)
    const first = gathered.funnelCounts(dev(1), YEAR, {})
    const gatheredReads = [gathered.funnelCounts(dev(2), YEAR, {}), gathered.funnelCounts(dev(3), YEAR, {})]
    s.calls[0]?.finish()
    await first
    await tick()
    s.calls[1]?.finish(new Error('store down'))
    for (const r of gatheredReads) await expect(r).rejects.toThrow('store down')
    await tick()
    const again = gathered.funnelCounts(dev(2), YEAR, {})
    await tick()
    s.calls[2]?.finish()
    expect(await again).toEqual(counts(dev(2), 3))
  })

  it("gathers one-id name reads per level into one store read of their ids (unknown absent, nameless null); a read of several ids passes straight", async () => {
    const s = heldStore()
    const gathered = new GatheredReads(s.store)
    const first = gathered.dimensionNames('developer', [dev(1)])
    const reads = [dev(2), dev(404), dev(0), dev(1)].map((d) => gathered.dimensionNames('developer', [d]))
    const project = gathered.dimensionNames('project', [dev(3)])
    const several = gathered.dimensionNames('developer', [dev(5), dev(6)])
    await tick()
    expect(s.calls.map((c) => [c.range?.fromDate, c.ids])).toEqual([
      ['developer', [dev(1)]],
      ['project', [dev(3)]],
      ['developer', [dev(5), dev(6)]],
    ])
    s.calls[0]?.finish()
    expect(await first).toEqual(new Map([[dev(1), 'developer 1 #1']]))
    await tick()
    expect(s.calls.map((c) => c.ids)).toEqual([[dev(1)], [dev(3)], [dev(5), dev(6)], [dev(2), dev(404), dev(0), dev(1)]])
    s.calls.slice(1).forEach((c) => c.finish())
    expect(await Promise.all(reads)).toEqual([new Map([[dev(2), 'developer 2 #4']]), new Map(), new Map([[dev(0), null]]), new Map([[dev(1), 'developer 1 #4']])])
    expect(await project).toEqual(new Map([[dev(3), 'project 3 #2']]))
    expect(await several).toEqual(new Map([[dev(5), 'developer 5 #3'], [dev(6), 'developer 6 #3']]))
    await tick()
    expect(gathered.kindsInFlight).toBe(0)
  })

  it('a store that leaves out an asked developer is an error, not a zero', async () => {
    const s = heldStore()
    const gathered = new GatheredReads({ ...s.store, funnelCountsOfDevelopers: async () => new Map() })
    await expect(gathered.funnelCounts(dev(1), YEAR, {})).rejects.toThrow(`left out developer ${dev(1)}`)
  })

  it('below it, the bounds give a gathered read one turn; over a store without many-developer reads, funnels pass straight through', async () => {
    const s = heldStore()
    const bounded = new BoundedReadModel(s.store, { maxConcurrent: 1, maxQueued: 0 })
    const gathered = new GatheredReads(bounded)
    const first = gathered.funnelCounts(dev(1), YEAR, {})
    const rest = [dev(2), dev(3)].map((d) => gathered.funnelCounts(d, YEAR, {}))
    s.calls[0]?.finish()
    await first
    await tick()
    expect(s.calls.map((c) => c.ids)).toEqual([[dev(1)], [dev(2), dev(3)]])
    s.calls[1]?.finish()
    expect(await Promise.all(rest)).toEqual([counts(dev(2), 2), counts(dev(3), 2)])

    const { funnelCountsOfDevelopers: _, ...withoutMany } = heldStore().store
    let reads = 0
    const one: ReadModel = { ...withoutMany, funnelCounts: async (id) => (reads++, counts(id, 0)) }
    const overBounds = new BoundedReadModel(one, { maxConcurrent: 1, maxQueued: 1 })
    expect(overBounds.funnelCountsOfDevelopers).toBeUndefined()
    const viaBounds = new GatheredReads(overBounds)
    expect(await Promise.all([dev(5), dev(6)].map((d) => viaBounds.funnelCounts(d, JUNE, {})))).toEqual([counts(dev(5), 0), counts(dev(6), 0)])
    expect(reads).toBe(2)
    expect(viaBounds.kindsInFlight).toBe(0)
  })
})
