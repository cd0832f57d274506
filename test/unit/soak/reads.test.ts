import { describe, expect, it } from 'vitest'
import { EMPTY_ENTRY, type LedgerEntry } from '../../../bench/soak/ledger-entry.js'
import { kindOf, quietReads, readLatencySeries, readsByFault } from '../../../bench/soak/read-stats.js'
import { ReadTruth } from '../../../bench/soak/read-truth.js'
import type { ReadSample } from '../../../bench/soak/reader.js'

const D = '11111111-1111-4111-8111-111111111111'
const entry = (e: Partial<LedgerEntry>): LedgerEntry => ({ ...EMPTY_ENTRY, Seq: 1, Consumer: 'X', Outcome: 'row', MessageId: 'm', DeveloperId: D, ...e })

describe('the soak reader\'s truth', () => {
  const truth = new ReadTruth()
  truth.observe(entry({ FactTable: 'property_object_view_facts', Stage: 'Views' }))
  truth.observe(entry({ FactTable: 'property_object_view_facts' }))
  truth.observe(entry({ FactTable: 'property_object_view_facts', Copy: 1 })) // a repeat: the same fact
  truth.observe(entry({ Stage: 'Favorites' }))
  truth.observe(entry({ Stage: 'Favorites', Outcome: 'poison' }))
  truth.observe(entry({ Stage: 'Deals', DeveloperId: '22222222-2222-4222-8222-222222222222' }))

  it('counts first deliveries that become rows, per developer, in the order developers appear', () => {
    expect(truth.developers).toEqual([D, '22222222-2222-4222-8222-222222222222'])
    expect([truth.viewsOf(D), truth.stageOf(D, 'Views'), truth.stageOf(D, 'Favorites'), truth.stageOf(D, 'Deals')]).toEqual([2, 2, 1, 0])
  })

  it('names every count above it, and nothing at or below it', () => {
    expect(truth.excess(D, 'session-metrics', { sessions: 2, views: { views: 2 } })).toEqual([])
    expect(truth.excess(D, 'session-metrics', { sessions: 3, views: { views: 2 } })).toEqual(['session-metrics sessions 3 > 2'])
    const funnel = (favorites: number) => ({ stages: [{ stage: 'Views', count: 2 }, { stage: 'Favorites', count: favorites }, { stage: 'Deals', count: 0 }] })
    expect(truth.excess(D, 'conversion-funnel', funnel(1))).toEqual([])
    expect(truth.excess(D, 'conversion-funnel', funnel(2))).toEqual(['conversion-funnel stage Favorites 2 > 1'])
    expect(truth.excess(D, 'conversion-funnel', {})).toEqual(['conversion-funnel without stages'])
  })
})

describe('reads by fault kind', () => {
  const s = (atMs: number, ms: number, status: ReadSample['status']): ReadSample => ({ atMs, ms, status, route: 'session-metrics', instance: 'i0' })
  const samples = [s(1000, 10, 200), s(2000, 20, 200), s(6000, 5000, 503), s(7000, 30, 200), s(8000, 9, 'gone'), s(12_000, 40, 200)]
  const spans = [{ label: 'wire-timeout clickhouse 20 s', startMs: 5000, endMs: 10_000 }, { label: 'broker-restart', startMs: 6500, endMs: 11_000 }]

  it('attributes a call to every kind active when it started, keeps the link of a wire fault, leaves out calls to a stopping instance', () => {
    expect(kindOf('wire-timeout clickhouse 20 s')).toBe('wire-timeout clickhouse')
    expect(kindOf('clickhouse-stop 30 s')).toBe('clickhouse-stop')
    const rows = readsByFault(samples, spans)
    expect(rows.map((r) => [r.during, r.calls])).toEqual([['broker-restart', 1], ['wire-timeout clickhouse', 2], ['no fault', 3], ['all', 5]])
    const timeout = rows.find((r) => r.during === 'wire-timeout clickhouse')
    expect(timeout).toMatchObject({ p50Ms: 30, p99Ms: 5000, ok: 0.5, unavailable: 0.5 })
    expect(rows.find((r) => r.during === 'no fault')).toMatchObject({ p50Ms: 20, p99Ms: 40, ok: 1, unavailable: 0 })
  })

  it('draws p50 and p99 per bucket, null where no call started', () => {
    expect(readLatencySeries(samples, 5, 15)).toEqual({ t: [5, 10, 15], p50: [10, 30, 40], p99: [20, 5000, 40] })
    expect(readLatencySeries([], 5, 10).p50).toEqual([null, null])
  })
})

describe('reads while no fault is active, per instance: the 503 share and the p99', () => {
  const s = (instance: string, atMs: number, status: ReadSample['status'], ms = 10): ReadSample => ({ atMs, ms, status, route: 'conversion-funnel', instance })
  const spans = [{ label: 'clickhouse-stop 20 s', startMs: 10_000, endMs: 30_000 }]
  const limits = { max503Share: 0.05, maxP99Ms: 1000, judgeLatency: true }

  it('fails an instance above the 503 limit, counting only calls started outside every fault and answered', () => {
    const i0 = Array.from({ length: 20 }, (_, k) => s('i0', k * 100, k === 0 ? 503 : 200)) // 1 of 20: 5 %
    const i1 = [...Array.from({ length: 19 }, (_, k) => s('i1', 40_000 + k, k < 2 ? 503 : 200)), s('i1', 40_100, 'gone')] // 2 of 19
    const duringFault = Array.from({ length: 50 }, (_, k) => s('i0', 10_000 + k, 503))
    const rows = quietReads([...i0, ...i1, ...duringFault], spans, limits)
    expect(rows.map((r) => [r.instance, r.calls, r.unavailable, r.pass])).toEqual([['i0', 20, 1, true], ['i1', 19, 2, false]])
  })

  it('fails an instance whose p99 is above the latency limit where latency is judged (issue 66)', () => {
    // 100 calls each: i0's two slowest (1.5 s) are its p99 and above; i1's one slow call is past its p99
    const i0 = Array.from({ length: 100 }, (_, k) => s('i0', 40_000 + k, 200, k < 2 ? 1500 : 50))
    const i1 = Array.from({ length: 100 }, (_, k) => s('i1', 40_000 + k, 200, k < 1 ? 8000 : 900))
    const slowDuringFault = Array.from({ length: 10 }, (_, k) => s('i1', 10_000 + k, 200, 9000))
    const rows = quietReads([...i0, ...i1, ...slowDuringFault], spans, limits)
    expect(rows.map((r) => [r.instance, r.p99Ms, r.pass])).toEqual([['i0', 1500, false], ['i1', 900, true]])
    expect(quietReads(i0, spans, { ...limits, judgeLatency: false }).map((r) => [r.p99Ms, r.latencyJudged, r.pass])).toEqual([[1500, false, true]])
  })
})
