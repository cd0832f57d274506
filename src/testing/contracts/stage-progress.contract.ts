import { describe, expect, it } from 'vitest'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { StageProgressReader } from '../../application/ports/stage-progress.port.js'
import { at, dimPath, funnelFact, id, sessionFact } from './fact-rows.mother.js'

/** A FactStore and the StageProgressReader over the same (fresh, empty) data. */
export interface StageProgressFixture {
  readonly store: FactStore
  readonly progress: StageProgressReader
}

const T = at('2026-11-30T10:00:00Z')
const min = 60_000

/** Every adapter derives the same per-stage lag from what the FactStore was given. */
export const stageProgressContract = (name: string, fresh: () => Promise<StageProgressFixture>): void => {
  describe(`StageProgressReader contract: ${name}`, () => {
    it('per stage the greatest lag of its newest minute; stages without funnel rows are absent', async () => {
      const f = await fresh()
      const p = dimPath()
      expect((await f.progress.newestLags()).size).toBe(0)
      await f.store.append([funnelFact('Favorites', p, id(), T - 900_000), funnelFact('Favorites', p, id(), T - 10_000)], T)
      await f.store.append([funnelFact('Favorites', p, id(), T + min - 5_000)], T + min)
      await f.store.append([funnelFact('Bookings', p, id(), T - 400_000), sessionFact()], T + 2 * min)
      await f.store.append([funnelFact('Bookings', p, id(), T + 2 * min - 30_000)], T + 2 * min + 10_000)
      expect(Object.fromEntries(await f.progress.newestLags())).toEqual({ Favorites: 5, Bookings: 520 })
    })

    it('a re-delivered batch and a second instance in the same minute: the greater lag stands', async () => {
      const f = await fresh()
      const p = dimPath()
      const late = [funnelFact('Deals', p, id(), T - 600_000)]
      await f.store.append(late, T)
      await f.store.append(late, T)
      await f.store.append([funnelFact('Deals', p, id(), T - 2_000)], T + 20_000)
      expect(Object.fromEntries(await f.progress.newestLags())).toEqual({ Deals: 600 })
    })
  })
}
