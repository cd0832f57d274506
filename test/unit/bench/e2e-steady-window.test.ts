import { describe, expect, it } from 'vitest'
import { settledWithin } from '../../../bench/e2e/all-topics.js'

const scrape = (counts: Record<string, [number, number]>) =>
  Object.entries(counts)
    .flatMap(([le, [a, b]]) => [
      `dev_stats_arrival_lag_seconds_bucket{le="${le}",consumer="session-ended"} ${a}`,
      `dev_stats_arrival_lag_seconds_bucket{le="${le}",consumer="view-ended"} ${b}`,
    ])
    .join('\n')

describe('bench:e2e --steady: the steady window from the service histogram', () => {
  it('counts the records settled between two scrapes, over every consumer, within a bucket bound', () => {
    const before = scrape({ '1': [10, 5], '2': [20, 8], '+Inf': [30, 10] })
    const after = scrape({ '1': [100, 50], '2': [190, 98], '+Inf': [200, 100] })
    expect(settledWithin(before, after, 2)).toEqual({ within: 170 + 90, total: 170 + 90 })
    expect(settledWithin(before, after, 1)).toEqual({ within: 90 + 45, total: 260 })
  })

  it('refuses a bound the histogram has no bucket at', () => {
    expect(() => settledWithin('', scrape({ '1': [1, 1], '+Inf': [1, 1] }), 2)).toThrow(/no bucket at 2 s/)
  })
})
