import { describe, expect, it } from 'vitest'
import { chart, renderReport, type ReportData } from '../../../bench/soak/report.js'

const data = (pass: boolean): ReportData => ({
  title: 'dev-stats soak: 3 min',
  command: 'npm run soak -- --minutes 3 --seed 1 --report r',
  startedAt: '2026-12-01T06:00:00Z',
  settings: { minutes: 3, seed: 1 },
  series: {
    t: [0, 5, 10, 15], produced: [0, 2000, 2000, 0], stored: [0, 1900, 2100, 50], lag: [0, 300, null, 0], behind: [0, 1, null, 0],
    arrivalP99: [null, 0.9, 1.2, null], dlq: [0, 1, 2, 0], parked: [0, 3, 4, 0], rss: { i0: [120, 130, 131, 131], i1: [null, 110, 112, 112] },
  },
  faults: [{ label: 'broker-restart', startMs: 4000, endMs: 9000 }, { label: 'clickhouse-stop 20 s', startMs: 6000, endMs: 12_000 }],
  checks: [{ check: 'session_facts: every fact once by FactId', expected: 10, found: 9, missing: 1, extra: 0, wrong: 0, note: '<dup>', samples: ['missing a/b'], details: ['missing a/b'], pass }],
  recoveries: [{ faults: ['broker-restart', 'clickhouse-stop 20 s'], endMs: 12_000, recoveredMs: 15_000, pass: true }],
  memory: [{ instance: 'i0', fromMs: 5000, toMs: 15_000, startMb: 130, endMb: 131, growth: 0.0077, judged: true, pass: true }],
  notes: ['load 1.0'],
  pass,
})

describe('soak report', () => {
  it('is one self-contained page: inline SVG charts, no script, nothing fetched', () => {
    const html = renderReport(data(true))
    expect(html).toMatch(/^<!doctype html>/)
    expect(html.match(/<svg /g)).toHaveLength(6)
    expect(html).not.toMatch(/<script|<link|src=|href=|url\(/i)
    expect(html).toContain('PASS')
    expect(html).toContain('--seed 1')
  })

  it('with a read load: the reads by fault kind, their findings and a latency chart', () => {
    const reads = {
      samples: [{ atMs: 5000, ms: 12, route: 'session-metrics' as const, instance: 'i0', status: 200 }, { atMs: 7000, ms: 4000, route: 'conversion-funnel' as const, instance: 'i1', status: 503 }],
      rows: [{ during: 'wire-timeout clickhouse', calls: 1, p50Ms: 4000, p99Ms: 4000, ok: 0, unavailable: 1 }],
      findings: ['conversion-funnel on i0 at 7 s: 500 <boom>'],
    }
    const html = renderReport({ ...data(true), reads, faults: [{ label: 'wire-timeout clickhouse 20 s', startMs: 4000, endMs: 9000 }] })
    expect(html.match(/<svg /g)).toHaveLength(7)
    expect(html).toContain('Read API latency per 10 s')
    expect(html).toContain('<td>wire-timeout clickhouse</td><td>1</td><td>4,000 ms</td>')
    expect(html).toContain('500 &lt;boom&gt;')
    expect(html).toMatch(/>wire-timeout clickhouse<\/text>/)
  })

  it('with wire faults: the proxy\'s peak RSS and the reads outside faults (503 share, p99), each as a verdict', () => {
    const reads = {
      samples: [], rows: [], findings: [], quietMax: 0.05, quietMaxP99Ms: 1000,
      quiet: [
        { instance: 'i0', calls: 100, unavailable: 2, share: 0.02, p99Ms: 640, latencyJudged: true, pass: true },
        { instance: 'i1', calls: 100, unavailable: 30, share: 0.3, p99Ms: 4200, latencyJudged: false, pass: false },
      ],
    }
    const html = renderReport({ ...data(false), reads, proxy: { peakMb: 2300, limitMb: 2048, pass: false } })
    expect(html).toContain('503 at most 5.0 %, p99 at most 1,000 ms per instance')
    expect(html).toContain('<td>i0</td><td>100</td><td>2</td><td>2.0 %</td><td>640 ms</td><td class="pass">pass</td>')
    expect(html).toContain('<td>i1</td><td>100</td><td>30</td><td>30.0 %</td><td>4,200 ms (not judged)</td><td class="fail">FAIL</td>')
    expect(html).toContain('<td>peak RSS</td><td>2,300 MB</td><td class="fail">FAIL</td>')
  })

  it('draws faults as spans, series as paths broken where a sample is missing, and escapes text', () => {
    const svg = chart('lag', 'records', [0, 5, 10, 15], [{ name: 'lag', values: [0, 300, null, 0] }], [{ label: 'broker-restart', startMs: 4000, endMs: 9000 }])
    expect(svg.match(/class="fault"/g)).toHaveLength(1)
    const d = /class="series" d="([^"]+)"/.exec(svg)?.[1] ?? ''
    expect(d.match(/M/g)).toHaveLength(2) // the gap at the missing sample starts a new stroke
    const html = renderReport(data(false))
    expect(html).toContain('&lt;dup&gt;')
    expect(html).toContain('FAIL')
    expect(html).toContain('missing a/b')
  })
})
