import { describe, expect, it } from 'vitest'
import { compareViewRank, mergeViews, type ViewRowRank } from '../../../src/domain/view-merge.js'

const rank = (isClosed: boolean, ingestionSecond: number, factId: string, developerId = 'd1'): ViewRowRank => ({ isClosed, ingestionSecond, factId, developerId })

describe('view merge rank (spec §7)', () => {
  it.each([
    ['closed beats a later open', rank(true, 10, 'a'), rank(false, 99, 'z'), 1],
    ['open loses to an earlier closed', rank(false, 99, 'z'), rank(true, 10, 'a'), -1],
    ['same kind: later IngestionTime wins', rank(true, 11, 'a'), rank(true, 10, 'z'), 1],
    ['same kind and second: FactId decides', rank(true, 10, 'b'), rank(true, 10, 'a'), 1],
    ['a redelivered row ties with itself', rank(true, 10, 'a'), rank(true, 10, 'a'), 0],
    ['a redelivery enriched again in the same second: DeveloperId decides', rank(true, 10, 'a', 'd2'), rank(true, 10, 'a', 'd1'), 1],
  ])('%s', (_, a, b, sign) => {
    expect(Math.sign(compareViewRank(a, b))).toBe(sign)
  })

  it('keeps the winning row per view, whatever the arrival order', () => {
    const rows = [
      { view: 'v1', r: rank(true, 5, 'closed') },
      { view: 'v1', r: rank(false, 9, 'open') },
      { view: 'v2', r: rank(false, 3, 'open2') },
    ]
    const winners = (xs: typeof rows) => Object.fromEntries([...mergeViews(xs, (x) => x.view, (x) => x.r)].map(([k, v]) => [k, v.r.factId]))
    expect(winners(rows)).toEqual({ v1: 'closed', v2: 'open2' })
    expect(winners([...rows].reverse())).toEqual({ v1: 'closed', v2: 'open2' })
  })
})
