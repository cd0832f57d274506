import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import type { StageProgressReader } from '../../../src/application/ports/stage-progress.port.js'
import { getConversionFunnel } from '../../../src/application/read/get-conversion-funnel.js'
import { storeFreshness } from '../../../src/application/read/stage-freshness.js'
import type { FunnelStage } from '../../../src/domain/funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { newestLags, stageProgressOf } from '../../../src/domain/stage-progress.js'
import { at, dimPath, funnelFact, id, sessionFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'

const T = at('2026-11-30T10:00:30Z')

describe('stage progress (domain)', () => {
  it('one row per funnel stage of a batch: the minute of its IngestionTime and the greatest lag; other tables ignored', () => {
    const p = dimPath()
    expect(stageProgressOf([funnelFact('Views', p, id(), T - 7_500), funnelFact('Views', p, id(), T - 2_000), sessionFact(), funnelFact('Deals', p, id(), T + 5_000)], T)).toEqual([
      { stage: 'Views', minute: at('2026-11-30T10:00:00Z'), lagSeconds: 7 },
      { stage: 'Deals', minute: at('2026-11-30T10:00:00Z'), lagSeconds: 0 },
    ])
  })

  it('newest minute wins over a greater older lag; within a minute the greater lag', () => {
    const m = at('2026-11-30T10:00:00Z')
    expect(Object.fromEntries(newestLags([
      { stage: 'Views', minute: m, lagSeconds: 900 },
      { stage: 'Views', minute: m + 60_000, lagSeconds: 3 },
      { stage: 'Deals', minute: m, lagSeconds: 5 },
      { stage: 'Deals', minute: m, lagSeconds: 400 },
    ]))).toEqual({ Views: 3, Deals: 400 })
  })
})

describe('funnel freshness from the store', () => {
  const reader = (lags: Partial<Record<FunnelStage, number>>): StageProgressReader & { reads: number } => {
    const r = { reads: 0, newestLags: async () => (r.reads++, new Map(Object.entries(lags) as [FunnelStage, number][])) }
    return r
  }
  const funnelWith = (progress: StageProgressReader, enabled = (s: FunnelStage) => s !== 'Leads') =>
    getConversionFunnel(new InMemoryReadModel(new InMemoryTables()), storeFreshness(progress, enabled))({ developerId: id() as Guid }, { fromDate: '2026-11-30', toDate: '2026-11-30' })

  it('over the 5-minute SLA: preliminary; within it or unknown: live; no consumer configured: no-source; one store read per request', async () => {
    const progress = reader({ Views: 12, Bookings: 301, Deals: 300 })
    const report = await funnelWith(progress)
    expect(E.isRight(report) && Object.fromEntries(report.right.map((s) => [s.stage, s.status]))).toEqual({
      Views: 'live', Favorites: 'live', Selections: 'live', Leads: 'no-source', Bookings: 'preliminary', BookingsPaid: 'live', Deals: 'live', DealsCompleted: 'live',
    })
    expect(progress.reads).toBe(1)
  })

  it('a failed store read fails the request and is not reused', async () => {
    let fail = true
    const progress: StageProgressReader = { newestLags: async () => { if (fail) throw new Error('store down'); return new Map() } }
    const freshness = storeFreshness(progress, () => true)
    await expect(freshness('Views')).rejects.toThrow('store down')
    fail = false
    await expect(freshness('Views')).resolves.toEqual({ enabled: true, lagSeconds: undefined })
  })
})
