import type { CheckRow } from './checker.js'
import { kindOf, readLatencySeries, type QuietReads, type ReadRow } from './read-stats.js'
import type { ReadSample } from './reader.js'
import type { Series } from './sampler.js'
import type { FaultSpan, MemoryVerdict, Recovery } from './verdicts.js'

/** Everything DIR/index.html shows; also written as DIR/series.json. */
export interface ReportData {
  readonly title: string
  /** The command line that repeats the run (with its seed). */
  readonly command: string
  readonly startedAt: string
  readonly settings: Readonly<Record<string, string | number>>
  readonly series: Series
  /** Seconds since the traffic started. */
  readonly faults: readonly FaultSpan[]
  readonly checks: readonly CheckRow[]
  readonly recoveries: readonly Recovery[]
  readonly memory: readonly MemoryVerdict[]
  readonly notes: readonly string[]
  /** The read load's calls (issue 36.4); absent in reports of older runs. */
  readonly reads?: {
    readonly samples: readonly ReadSample[]
    readonly rows: readonly ReadRow[]
    readonly findings: readonly string[]
    /** Per instance, the 503 share of reads made while no fault was active (issue 47.4). */
    readonly quiet?: readonly QuietReads[]
    readonly quietMax?: number
    readonly quietMaxP99Ms?: number
  }
  /** With wire faults: Toxiproxy's peak RSS and the limit that stops it. */
  readonly proxy?: { readonly peakMb: number; readonly limitMb: number; readonly pass: boolean }
  readonly pass: boolean
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
const fmt = (n: number) => (Math.abs(n) >= 1000 ? Math.round(n).toLocaleString('en-US') : String(Math.round(n * 100) / 100))

export const FAULT_COLORS: Readonly<Record<string, string>> = {
  'broker-restart': '#d62728',
  'clickhouse-stop': '#ff7f0e',
  'instance-kill': '#9467bd',
  'instance-add': '#2ca02c',
  'instance-term': '#8c564b',
  'wire-latency': '#e7ba52',
  'wire-bandwidth': '#ad494a',
  'wire-timeout': '#000000',
  'wire-reset': '#a55194',
  'wire-limit-data': '#6b6ecf',
}
const LINE_COLORS = ['#1f77b4', '#e377c2', '#17becf', '#bcbd22', '#7f7f7f', '#393b79']

const W = 1100
const H = 190
const PAD = { left: 64, right: 16, top: 24, bottom: 26 }

/** One chart: lines over time (null = no sample), fault spans shaded behind them. */
export const chart = (title: string, unit: string, t: readonly number[], lines: readonly { name: string; values: readonly (number | null)[] }[], faults: readonly FaultSpan[]): string => {
  const tMax = Math.max(1, t.at(-1) ?? 1, ...faults.map((f) => f.endMs / 1000))
  const all = lines.flatMap((l) => l.values.filter((v): v is number => v !== null && Number.isFinite(v)))
  const yMax = Math.max(1, ...all) * 1.08
  const x = (s: number) => PAD.left + (s / tMax) * (W - PAD.left - PAD.right)
  const y = (v: number) => H - PAD.bottom - (v / yMax) * (H - PAD.top - PAD.bottom)
  const spans = faults.map((f, i) => {
    const x0 = x(f.startMs / 1000)
    const w = Math.max(2, x(f.endMs / 1000) - x0)
    const kind = f.label.split(' ')[0] as string
    const tag = kindOf(f.label)
    return `<rect class="fault" x="${x0.toFixed(1)}" y="${PAD.top}" width="${w.toFixed(1)}" height="${H - PAD.top - PAD.bottom}" fill="${FAULT_COLORS[kind] ?? '#999'}" fill-opacity="0.18"><title>${esc(f.label)}</title></rect>` +
      `<text x="${(x0 + 2).toFixed(1)}" y="${PAD.top + 10 + (i % 3) * 10}" font-size="9" fill="${FAULT_COLORS[kind] ?? '#999'}">${esc(tag)}</text>`
  })
  const paths = lines.map((l, li) => {
    let d = ''
    let pen = false
    l.values.forEach((v, i) => {
      const s = t[i]
      if (v === null || s === undefined || !Number.isFinite(v)) {
        pen = false
        return
      }
      d += `${pen ? 'L' : 'M'}${x(s).toFixed(1)},${y(v).toFixed(1)}`
      pen = true
    })
    return `<path class="series" d="${d}" fill="none" stroke="${LINE_COLORS[li % LINE_COLORS.length]}" stroke-width="2"/>`
  })
  const ticks = [0, 0.25, 0.5, 0.75, 1].map((f) => {
    const v = yMax * f
    return `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/><text x="${PAD.left - 4}" y="${(y(v) + 3).toFixed(1)}" font-size="10" text-anchor="end">${fmt(v)}</text>`
  })
  const xTicks = Array.from({ length: 7 }, (_, i) => (tMax * i) / 6).map((s) =>
    `<text x="${x(s).toFixed(1)}" y="${H - 8}" font-size="10" text-anchor="middle">${tMax >= 900 ? `${Math.round(s / 60)} min` : `${Math.round(s)} s`}</text>`)
  const legend = lines.map((l, li) => `<tspan fill="${LINE_COLORS[li % LINE_COLORS.length]}">■ ${esc(l.name)}</tspan>`).join(' ')
  return `<figure><svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(title)}">
<text x="${PAD.left}" y="14" font-size="13" font-weight="bold">${esc(title)} <tspan font-weight="normal" font-size="11">(${esc(unit)})</tspan></text>
<text x="${W - PAD.right}" y="14" font-size="11" text-anchor="end">${legend}</text>
${ticks.join('\n')}
${spans.join('\n')}
${paths.join('\n')}
<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#333"/>
${xTicks.join('')}
</svg></figure>`
}

const verdict = (pass: boolean) => (pass ? '<td class="pass">pass</td>' : '<td class="fail">FAIL</td>')

const checkTable = (rows: readonly CheckRow[]) => `<table><thead><tr><th>check</th><th>expected</th><th>found</th><th>missing</th><th>extra</th><th>wrong</th><th>note</th><th></th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${esc(r.check)}</td><td>${fmt(r.expected)}</td><td>${fmt(r.found)}</td><td>${r.missing}</td><td>${r.extra}</td><td>${r.wrong}</td><td>${esc(r.note)}${r.samples.length ? `<br><small>${r.samples.map(esc).join('<br>')}</small>` : ''}</td>${verdict(r.pass)}</tr>`).join('\n')}
</tbody></table>`

const recoveryTable = (rs: readonly Recovery[]) => `<table><thead><tr><th>faults (one episode)</th><th>ended at</th><th>lag back at</th><th>recovery</th><th></th></tr></thead><tbody>
${rs.map((r) => `<tr><td>${esc(r.faults.join(', '))}</td><td>${fmt(r.endMs / 1000)} s</td><td>${r.recoveredMs === null ? 'never' : `${fmt(r.recoveredMs / 1000)} s`}</td><td>${r.recoveredMs === null ? '–' : `${fmt((r.recoveredMs - r.endMs) / 1000)} s`}</td>${verdict(r.pass)}</tr>`).join('\n')}
</tbody></table>`

const memoryTable = (ms: readonly MemoryVerdict[]) => `<table><thead><tr><th>instance</th><th>window</th><th>RSS at start of window</th><th>at end</th><th>growth</th><th></th></tr></thead><tbody>
${ms.map((m) => `<tr><td>${esc(m.instance)}</td><td>${fmt(m.fromMs / 1000)}–${fmt(m.toMs / 1000)} s</td><td>${fmt(m.startMb)} MB</td><td>${fmt(m.endMb)} MB</td><td>${(m.growth * 100).toFixed(1)} %</td>${m.judged ? verdict(m.pass) : '<td>not judged (window too short)</td>'}</tr>`).join('\n')}
</tbody></table>`

const ms = (v: number | null) => (v === null ? '–' : `${fmt(v)} ms`)
const pct = (v: number) => `${(v * 100).toFixed(1)} %`

const readTable = (rows: readonly ReadRow[]) => `<table><thead><tr><th>calls made during</th><th>calls</th><th>p50</th><th>p99</th><th>200</th><th>503 + Retry-After</th></tr></thead><tbody>
${rows.map((r) => `<tr><td>${esc(r.during)}</td><td>${r.calls}</td><td>${ms(r.p50Ms)}</td><td>${ms(r.p99Ms)}</td><td>${pct(r.ok)}</td><td>${pct(r.unavailable)}</td></tr>`).join('\n')}
</tbody></table>`

const quietTable = (rows: readonly QuietReads[], max: number, maxP99Ms: number) => `<h2>Reads while no fault is active: 503 at most ${pct(max)}, p99 at most ${fmt(maxP99Ms)} ms per instance</h2>
<table><thead><tr><th>instance</th><th>calls with no fault active</th><th>503</th><th>share</th><th>p99</th><th></th></tr></thead><tbody>
${rows.map((q) => `<tr><td>${esc(q.instance)}</td><td>${q.calls}</td><td>${q.unavailable}</td><td>${pct(q.share)}</td><td>${ms(q.p99Ms)}${q.latencyJudged ? '' : ' (not judged)'}</td>${verdict(q.pass)}</tr>`).join('\n')}
</tbody></table>`

const readSection = (reads: NonNullable<ReportData['reads']>, endS: number, faults: readonly FaultSpan[]) => {
  const series = readLatencySeries(reads.samples, 10, endS)
  return `<h2>Reads under faults: both read API routes, several developers, all the run</h2>
<p>Every answer must be a 200 within the ledger's truth or a 503 with Retry-After. Findings: ${reads.findings.length === 0 ? '<span class="pass">none</span>' : `<span class="fail">${reads.findings.length}</span><br><small>${reads.findings.slice(0, 20).map(esc).join('<br>')}</small>`}</p>
${readTable(reads.rows)}
${reads.quiet ? quietTable(reads.quiet, reads.quietMax ?? 0, reads.quietMaxP99Ms ?? 0) : ''}
${chart('Read API latency per 10 s', 'ms', series.t, [{ name: 'p50', values: series.p50 }, { name: 'p99', values: series.p99 }], faults)}`
}

/** The whole page: self-contained (inline SVG and CSS, no script, nothing fetched). */
export const renderReport = (d: ReportData): string => {
  const s = d.series
  const rssLines = Object.entries(s.rss).map(([name, values]) => ({ name, values }))
  const charts = [
    chart('Records produced and rows stored per second', '1/s', s.t, [{ name: 'produced', values: s.produced }, { name: 'stored rows', values: s.stored }], d.faults),
    chart('Consumer lag, all groups, source + retry topics', 'records', s.t, [{ name: 'lag', values: s.lag }], d.faults),
    chart('Arrival lag p99', 's', s.t, [{ name: 'p99', values: s.arrivalP99 }], d.faults),
    chart('Dead letters per second', '1/s', s.t, [{ name: 'DLQ', values: s.dlq }], d.faults),
    chart('Parked copies in memory', 'records', s.t, [{ name: 'parked', values: s.parked }], d.faults),
    chart('RSS per instance', 'MB', s.t, rssLines, d.faults),
  ]
  const settings = Object.entries(d.settings).map(([k, v]) => `<tr><td>${esc(k)}</td><td>${esc(String(v))}</td></tr>`).join('')
  const legend = Object.entries(FAULT_COLORS).map(([k, c]) => `<span style="background:${c}33;border-left:4px solid ${c};padding:0 6px;margin-right:8px">${esc(k)}</span>`).join('')
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(d.title)}</title>
<style>
body{font:14px/1.4 system-ui,sans-serif;margin:20px;color:#222;max-width:1140px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:22px 0 6px}
figure{margin:8px 0}table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
.pass{color:#1a7f37;font-weight:bold}.fail{color:#c00;font-weight:bold}.verdict{font-size:18px;padding:6px 10px;display:inline-block;border-radius:4px}
.verdict.pass{background:#e6f4ea}.verdict.fail{background:#fde8e8}code{background:#f3f3f3;padding:1px 4px}
</style></head><body>
<h1>${esc(d.title)}</h1>
<div class="verdict ${d.pass ? 'pass' : 'fail'}">${d.pass ? 'PASS' : 'FAIL'}</div>
<p>Started ${esc(d.startedAt)}. Repeat with <code>${esc(d.command)}</code></p>
<table>${settings}</table>
<h2>End check</h2>
${checkTable(d.checks)}
<h2>Liveness: lag back within 2 minutes of each fault episode</h2>
${recoveryTable(d.recoveries)}
<h2>Memory: RSS growth over the last two thirds</h2>
${memoryTable(d.memory)}
${d.proxy ? `<h2>Toxiproxy's memory: peak RSS at most ${fmt(d.proxy.limitMb)} MB</h2>
<table><tr><td>peak RSS</td><td>${fmt(d.proxy.peakMb)} MB</td>${verdict(d.proxy.pass)}</tr></table>` : ''}
<h2>Over time</h2>
<p>Faults: ${legend}</p>
${charts.join('\n')}
${d.reads ? readSection(d.reads, s.t.at(-1) ?? 0, d.faults) : ''}
${d.notes.length ? `<h2>Notes</h2><ul>${d.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : ''}
</body></html>
`
}
