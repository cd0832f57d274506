import { describe, expect, it } from 'vitest'
import type { DimensionPath } from '../../domain/dimension-path.js'
import type { Guid } from '../../domain/guid.js'
import type { FactStoreFixture } from './fact-store.contract.js'
import { at, dimPath, id, sessionFact, viewFact } from './fact-rows.mother.js'

const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const T = at('2026-11-30T10:00:00Z')
const S = 1000

/** The open (action-tracked) and the closed (view-ended) row of one view, as the handlers write them. */
const oneView = (path: DimensionPath, sessionId = id(), viewId = id()) => ({
  open: viewFact(path, sessionId, T, false, viewId),
  closed: viewFact(path, sessionId, T, true, viewId),
  viewId,
})

const totals = (views: number, closedViews: number, totalViewSeconds: number) => ({ views, closedViews, totalViewSeconds })

/** Spec §7: open and closed facts of one view are one view on read, the closed one winning. */
export const viewMergeContract = (name: string, fresh: () => Promise<FactStoreFixture>): void => {
  describe(`view facts merged on read: ${name}`, () => {
    // the same answer before and after the background merges collapse what they can
    const check = async (f: FactStoreFixture, dev: Guid, expected: ReturnType<typeof totals>) => {
      expect((await f.readModel.sessionMetrics(dev, NOV)).views).toEqual(expected)
      await f.forceMerge()
      expect((await f.readModel.sessionMetrics(dev, NOV)).views).toEqual(expected)
    }

    it('open only: one view, not closed', async () => {
      const f = await fresh()
      const dev = id()
      await f.store.append([oneView(dimPath(dev)).open], T)
      await check(f, dev, totals(1, 0, 0))
    })

    it('closed only: one closed view with its duration', async () => {
      const f = await fresh()
      const dev = id()
      await f.store.append([oneView(dimPath(dev)).closed], T)
      await check(f, dev, totals(1, 1, 120))
    })

    it('open then closed: one view, the closed row wins', async () => {
      const f = await fresh()
      const dev = id()
      const v = oneView(dimPath(dev))
      await f.store.append([v.open], T)
      await f.store.append([v.closed], T + 30 * S)
      await check(f, dev, totals(1, 1, 120))
    })

    it('open and closed ingested in the same second (IngestionTime has whole seconds): the closed row wins', async () => {
      const f = await fresh()
      const dev = id()
      const v = oneView(dimPath(dev))
      await f.store.append([v.closed, v.open], T)
      await check(f, dev, totals(1, 1, 120))
    })

    it('closed then a late open: the late open does not reopen the view', async () => {
      const f = await fresh()
      const dev = id()
      const v = oneView(dimPath(dev))
      await f.store.append([v.closed], T)
      await f.store.append([v.open], T + 60 * S)
      await check(f, dev, totals(1, 1, 120))
    })

    it('redelivered closed: one view, its duration once', async () => {
      const f = await fresh()
      const dev = id()
      const v = oneView(dimPath(dev))
      await f.store.append([v.open, v.closed], T)
      await f.store.append([v.closed], T + 5 * S)
      await f.store.append([v.closed, v.closed], T + 9 * S)
      await check(f, dev, totals(1, 1, 120))
    })

    it('session metrics take the developer of the winning row: an open row under a stale path does not count', async () => {
      const f = await fresh()
      const [stale, current] = [id(), id()]
      const s = id()
      const v = oneView(dimPath(current), s)
      const staleOpen = viewFact(dimPath(stale), s, T, false, v.viewId)
      await f.store.append([sessionFact({ sessionId: s, durationSeconds: 77 }), staleOpen], T)
      expect((await f.readModel.sessionMetrics(stale, NOV)).sessions.sessions).toBe(1)
      await f.store.append([v.closed], T + 10 * S)
      expect((await f.readModel.sessionMetrics(stale, NOV)).sessions.sessions).toBe(0)
      expect((await f.readModel.sessionMetrics(stale, NOV)).views).toEqual(totals(0, 0, 0))
      expect((await f.readModel.sessionMetrics(current, NOV)).sessions).toMatchObject({ sessions: 1, totalDurationSeconds: 77 })
      await check(f, current, totals(1, 1, 120))
    })
  })
}
