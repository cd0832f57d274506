import { describe, expect, it } from 'vitest'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { DateRange, ReadModel, StageCounts } from '../../application/ports/read-model.port.js'
import type { Guid } from '../../domain/guid.js'
import { FUNNEL_STAGES } from '../../domain/funnel.js'
import { at, dimPath, funnelFact, id, sessionFact, viewFact } from './fact-rows.mother.js'

/** A FactStore and the ReadModel over the same (fresh, empty) data. */
export interface FactStoreFixture {
  readonly store: FactStore
  readonly readModel: ReadModel
  /** Forces background merges (OPTIMIZE … FINAL); nothing to do in memory. */
  forceMerge(): Promise<void>
}

const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const T = at('2026-11-30T10:00:00Z')
const zeroStages = Object.fromEntries(FUNNEL_STAGES.map((s) => [s, 0])) as Record<keyof StageCounts, number>
const stages = (o: Partial<StageCounts>): StageCounts => ({ ...zeroStages, ...o })

/** The store's read of many developers' funnels where it has one, else one read per developer. */
const funnelsOfDevelopers = async (model: ReadModel, developerIds: readonly Guid[], range: DateRange): Promise<ReadonlyMap<Guid, StageCounts>> =>
  model.funnelCountsOfDevelopers ? model.funnelCountsOfDevelopers(developerIds, range) : new Map(await Promise.all(developerIds.map(async (d) => [d, await model.funnelCounts(d, range, {})] as const)))

/** One contract, every adapter: the same appends give the same answers. */
export const factStoreContract = (name: string, fresh: () => Promise<FactStoreFixture>): void => {
  describe(`FactStore + ReadModel contract: ${name}`, () => {
    it('session metrics: only sessions that viewed the developer in the period, guest/user split, duration stats', async () => {
      const f = await fresh()
      const dev = id()
      const mine = dimPath(dev)
      const [guest, user, other, late, never] = [id(), id(), id(), id(), id()]
      await f.store.append(
        [
          sessionFact({ sessionId: guest, userId: null, durationSeconds: 100 }),
          // a view happens within its session (domain/serving-links.ts): each session starts at its view
          sessionFact({ sessionId: user, durationSeconds: 300, at: NOV.from }),
          sessionFact({ sessionId: other, durationSeconds: 7 }),
          sessionFact({ sessionId: late, durationSeconds: 9, at: NOV.to }),
          sessionFact({ sessionId: never, durationSeconds: 11 }),
          viewFact(mine, guest, T),
          viewFact(mine, guest, T + 1000),
          viewFact(mine, user, NOV.from),
          viewFact(dimPath(), other, T),
          viewFact(mine, late, NOV.to),
        ],
        T,
      )
      expect((await f.readModel.sessionMetrics(dev, NOV)).sessions).toEqual({
        sessions: 2, guestSessions: 1, userSessions: 1, totalDurationSeconds: 400, minDurationSeconds: 100, maxDurationSeconds: 300,
      })
    })

    it('session metrics: the latest IngestionTime of a session wins (argMax), and nothing yields zeros', async () => {
      const f = await fresh()
      const dev = id()
      const s = id()
      await f.store.append([sessionFact({ sessionId: s, durationSeconds: 50 }), viewFact(dimPath(dev), s, T)], T)
      await f.store.append([sessionFact({ sessionId: s, durationSeconds: 80 })], T + 60_000)
      expect((await f.readModel.sessionMetrics(dev, NOV)).sessions).toMatchObject({ sessions: 1, userSessions: 1, totalDurationSeconds: 80 })
      expect((await f.readModel.sessionMetrics(id(), NOV)).sessions).toEqual({
        sessions: 0, guestSessions: 0, userSessions: 0, totalDurationSeconds: 0, minDurationSeconds: 0, maxDurationSeconds: 0,
      })
    })

    it('a re-inserted FactId counts once, before and after a forced merge', async () => {
      const f = await fresh()
      const dev = id()
      const s = id()
      const fact = sessionFact({ sessionId: s, durationSeconds: 42 })
      await f.store.append([fact, viewFact(dimPath(dev), s, T)], T)
      await f.store.append([fact], T + 5_000)
      await f.store.append([fact, fact], T + 9_000)
      const expected = { sessions: 1, guestSessions: 0, userSessions: 1, totalDurationSeconds: 42, minDurationSeconds: 42, maxDurationSeconds: 42 }
      expect((await f.readModel.sessionMetrics(dev, NOV)).sessions).toEqual(expected)
      await f.forceMerge()
      expect((await f.readModel.sessionMetrics(dev, NOV)).sessions).toEqual(expected)
    })

    it('funnel: stages counted independently per developer, date range inclusive, hierarchy filters', async () => {
      const f = await fresh()
      const dev = id()
      const a = dimPath(dev)
      const b = { ...dimPath(dev), projectId: a.projectId }
      const c = dimPath(dev)
      await f.store.append(
        [
          funnelFact('Views', a, id(), at('2026-11-01T00:00:00Z')),
          funnelFact('Views', a, id(), at('2026-11-30T23:59:59Z')),
          funnelFact('Views', b, id(), T),
          funnelFact('Views', c, id(), T),
          funnelFact('Leads', a, id(), T),
          funnelFact('DealsCompleted', c, id(), T),
          funnelFact('Views', a, id(), at('2026-12-01T00:00:00Z')),
          funnelFact('Views', dimPath(), id(), T),
        ],
        T,
      )
      const range = { fromDate: '2026-11-01', toDate: '2026-11-30' }
      expect(await f.readModel.funnelCounts(dev, range, {})).toEqual(stages({ Views: 4, Leads: 1, DealsCompleted: 1 }))
      expect(await f.readModel.funnelCounts(dev, range, { projectId: a.projectId })).toEqual(stages({ Views: 3, Leads: 1 }))
      expect(await f.readModel.funnelCounts(dev, range, { projectId: a.projectId, propertyObjectId: b.propertyObjectId })).toEqual(stages({ Views: 1 }))
      expect(await f.readModel.funnelCounts(dev, range, { layoutId: c.layoutId })).toEqual(stages({ Views: 1, DealsCompleted: 1 }))
      expect(await f.readModel.funnelCounts(dev, { fromDate: '2026-12-01', toDate: '2026-12-31' }, {})).toEqual(stages({ Views: 1 }))
      expect(await f.readModel.funnelCounts(id(), range, {})).toEqual(stages({}))
    })

    it("funnel: many developers' unfiltered funnels read at once equal each one's own read; an unknown developer counts zero", async () => {
      const f = await fresh()
      const [d1, d2, d3, unknown] = [id(), id(), id(), id()]
      const [p1, p2, p3] = [dimPath(d1), dimPath(d2), dimPath(d3)]
      const lead = id()
      await f.store.append(
        [
          funnelFact('Views', p1, id(), at('2026-11-01T00:00:00Z')),
          funnelFact('Views', p1, id(), at('2026-11-30T23:59:59Z')),
          funnelFact('Leads', p1, lead, T),
          funnelFact('Leads', dimPath(d1), lead, T),
          funnelFact('Views', p2, id(), T),
          funnelFact('Deals', p2, id(), at('2026-12-01T00:00:00Z')),
          funnelFact('Bookings', p3, id(), at('2026-10-31T23:59:59Z')),
        ],
        T,
      )
      const range = { fromDate: '2026-11-01', toDate: '2026-11-30' }
      const many = await funnelsOfDevelopers(f.readModel, [d1, d2, d3, unknown, d1], range)
      expect(new Map(many)).toEqual(
        new Map([
          [d1, stages({ Views: 2, Leads: 1 })],
          [d2, stages({ Views: 1 })],
          [d3, stages({})],
          [unknown, stages({})],
        ]),
      )
      for (const d of [d1, d2, d3]) expect(many.get(d)).toEqual(await f.readModel.funnelCounts(d, range, {}))
      expect(new Map(await funnelsOfDevelopers(f.readModel, [d2, d3], { fromDate: '2026-10-31', toDate: '2026-12-01' }))).toEqual(
        new Map([
          [d2, stages({ Views: 1, Deals: 1 })],
          [d3, stages({ Bookings: 1 })],
        ]),
      )
    })

    it('funnel: a business key inserted twice counts once, before and after a forced merge', async () => {
      const f = await fresh()
      const dev = id()
      const p = dimPath(dev)
      const lead = id()
      await f.store.append([funnelFact('Leads', p, lead, T), funnelFact('Leads', p, lead, T)], T)
      await f.store.append([funnelFact('Leads', p, lead, T), funnelFact('Views', p, lead, T)], T + 1000)
      const range = { fromDate: '2026-11-30', toDate: '2026-11-30' }
      expect(await f.readModel.funnelCounts(dev, range, {})).toEqual(stages({ Leads: 1, Views: 1 }))
      await f.forceMerge()
      expect(await f.readModel.funnelCounts(dev, range, {})).toEqual(stages({ Leads: 1, Views: 1 }))
    })

    it('an empty append is a no-op', async () => {
      const f = await fresh()
      await f.store.append([], T)
      expect((await f.readModel.sessionMetrics(id(), NOV)).sessions.sessions).toBe(0)
    })
  })
}
