import { describe, expect, it } from 'vitest'
import { memoryVerdict, recoveries } from '../../../bench/soak/verdicts.js'
import { increase, parseMetrics, quantile } from '../../../bench/soak/metrics-text.js'

const lagEvery5s = (values: (number | null)[]) => values.map((lag, i) => ({ t: i * 5000, lag }))

describe('soak liveness', () => {
  it('measures recovery from the end of a fault to the first sample at or below the threshold', () => {
    const r = recoveries([{ label: 'broker-restart', startMs: 5000, endMs: 12_000 }], lagEvery5s([1, 30, null, 40, 20, 9, 3]), 10, 120_000)
    expect(r).toEqual([{ faults: ['broker-restart'], endMs: 12_000, recoveredMs: 25_000, pass: true }])
  })

  it('joins a fault that starts before the one before recovered into one episode', () => {
    const spans = [
      { label: 'clickhouse-stop', startMs: 0, endMs: 10_000 },
      { label: 'instance-kill', startMs: 15_000, endMs: 20_000 },
      { label: 'instance-add', startMs: 60_000, endMs: 65_000 },
    ]
    const r = recoveries(spans, lagEvery5s([50, 50, 50, 50, 50, 5, 5, 5, 5, 5, 5, 5, 50, 5]), 10, 120_000)
    expect(r.map((x) => [x.faults, x.recoveredMs])).toEqual([[['clickhouse-stop', 'instance-kill'], 25_000], [['instance-add'], 65_000]])
  })

  it('fails an episode that never recovers or takes longer than the limit', () => {
    expect(recoveries([{ label: 'x', startMs: 0, endMs: 1000 }], lagEvery5s([50, 50, 50]), 10, 120_000)[0]?.pass).toBe(false)
    expect(recoveries([{ label: 'x', startMs: 0, endMs: 0 }], lagEvery5s([50, 50, 50, 1]), 10, 10_000)[0]).toMatchObject({ recoveredMs: 15_000, pass: false })
  })
})

describe('soak memory verdict', () => {
  const o = { warmupMs: 60_000, minWindowMs: 300_000, maxGrowth: 0.05 }
  const flat = Array.from({ length: 361 }, (_, i) => ({ t: i * 10_000, mb: 150 + (i % 2) }))
  it('passes flat RSS and fails a 10 % creep over the last two thirds', () => {
    expect(memoryVerdict('i0', flat, 0, 3_600_000, o)).toMatchObject({ judged: true, pass: true, fromMs: 1_200_000 })
    const creep = flat.map((s) => ({ t: s.t, mb: 150 * (1 + (0.15 * s.t) / 3_600_000) }))
    expect(memoryVerdict('i0', creep, 0, 3_600_000, o)).toMatchObject({ judged: true, pass: false })
  })

  it('judges from the last fault recovery: a new incarnation filling up among the faults is not growth, a creep after them is', () => {
    // restarted at 46 min among faults that end (recovered) at 92 min: 120 MB filling up to 160 MB by 60 min, then flat
    const twoHours = 7_200_000
    const restarted = Array.from({ length: 445 }, (_, i) => ({ t: 2_760_000 + i * 10_000, mb: 160 - 40 * Math.max(0, 1 - (i * 10_000) / 840_000) + (i % 2) }))
    expect(memoryVerdict('i0', restarted, 0, twoHours, { ...o, minWindowMs: 1_200_000 })).toMatchObject({ judged: true, pass: false })
    expect(memoryVerdict('i0', restarted, 0, twoHours, { ...o, minWindowMs: 1_200_000, quietFromMs: 5_520_000 })).toMatchObject({ judged: true, pass: true, fromMs: 5_520_000 })
    const leaking = restarted.map((s) => ({ t: s.t, mb: s.t < 5_520_000 ? s.mb : s.mb * (1 + (0.1 * (s.t - 5_520_000)) / 1_680_000) }))
    expect(memoryVerdict('i0', leaking, 0, twoHours, { ...o, minWindowMs: 1_200_000, quietFromMs: 5_520_000 })).toMatchObject({ judged: true, pass: false })
  })

  it('compares medians: a short dip in the first fifth does not fake growth', () => {
    const dip = flat.map((s) => (s.t >= 1_300_000 && s.t < 1_400_000 ? { t: s.t, mb: 100 } : s))
    expect(memoryVerdict('i0', dip, 0, 3_600_000, o)).toMatchObject({ judged: true, pass: true })
  })

  it('does not judge an incarnation that started too late to have a window', () => {
    const late = flat.filter((s) => s.t >= 3_400_000)
    expect(memoryVerdict('i0', late, 0, 3_600_000, o)).toMatchObject({ judged: false, pass: true })
  })
})

describe('soak metrics reading', () => {
  const text = [
    '# HELP dev_stats_session_facts_ingested_total Rows',
    'dev_stats_session_facts_ingested_total{consumer="session-ended"} 100',
    'dev_stats_funnel_daily_ingested_total{consumer="funnel-favorites"} 20',
    'dev_stats_dlq_total{consumer="session-ended",reason="undecodable"} 3',
    'dev_stats_parked_in_memory{consumer="funnel-favorites"} 4',
    'dev_stats_arrival_lag_seconds_bucket{le="1",consumer="session-ended"} 90',
    'dev_stats_arrival_lag_seconds_bucket{le="5",consumer="session-ended"} 100',
    'dev_stats_arrival_lag_seconds_bucket{le="+Inf",consumer="session-ended"} 100',
  ].join('\n')
  it('sums rows, dead letters, parked copies and arrival buckets over consumers', () => {
    const f = parseMetrics(text)
    expect(f).toMatchObject({ stored: 120, deadLettered: 3, parkedInMemory: 4 })
    expect([...f.arrivalBuckets]).toEqual([[1, 90], [5, 100], [Number.POSITIVE_INFINITY, 100]])
  })

  it('interpolates a quantile inside its bucket and treats a restarted counter as new', () => {
    expect(quantile(0.99, new Map([[1, 90], [5, 100], [Number.POSITIVE_INFINITY, 100]]))).toBeCloseTo(4.6)
    expect(quantile(0.5, new Map([[1, 90], [Number.POSITIVE_INFINITY, 90]]))).toBeCloseTo(0.5)
    expect(quantile(0.99, new Map([[Number.POSITIVE_INFINITY, 0]]))).toBeNull()
    expect(increase(10, 15)).toBe(5)
    expect(increase(10, 4)).toBe(4)
    expect(increase(undefined, 4)).toBe(4)
  })
})
