import type { ConsumerEngine } from '../application/engine/consumer-engine.js'
import type { FunnelStageReport } from '../application/read/get-conversion-funnel.js'
import type { SessionMetrics } from '../application/read/get-developer-session-metrics.js'
import type { ScopeLevel } from '../application/read/get-funnel-scope.js'

const pad = (s: string | number, n: number) => String(s).padEnd(n)
const num = (s: string | number, n: number) => String(s).padStart(n)

export const renderEngines = (engines: readonly ConsumerEngine[]): string => {
  const head = `${pad('topic', 50)}${num('rows', 7)}${num('dlq', 6)}${num('skipped', 9)}${num('parked', 8)}${num('recovered', 11)}${num('dups', 6)}`
  const lines = engines.map(({ topics, stats: s }) =>
    `${pad(topics.source, 50)}${num(s.rowsIngested, 7)}${num(s.deadLettered, 6)}${num([...s.skipped.values()].reduce((a, b) => a + b, 0), 9)}${num(s.parked, 8)}${num(s.recovered, 11)}${num(s.duplicatesDropped, 6)}`,
  )
  const reasons = new Map<string, number>()
  for (const e of engines) for (const [r, n] of e.stats.deadLetters) reasons.set(r, (reasons.get(r) ?? 0) + n)
  const skips = new Map<string, number>()
  for (const e of engines) for (const [r, n] of e.stats.skipped) skips.set(r, (skips.get(r) ?? 0) + n)
  const list = (m: Map<string, number>) => [...m].map(([r, n]) => `${r} ${n}`).join(', ') || 'none'
  return [head, ...lines, '', `dead letters by reason: ${list(reasons)}`, `skips by reason: ${list(skips)}`].join('\n')
}

export const renderSessions = (developer: string, m: SessionMetrics): string =>
  [
    `session metrics of ${developer} (sessions that viewed its objects):`,
    `  sessions ${m.sessions}  (guests ${m.guestSessions}, users ${m.userSessions})`,
    `  duration: avg ${m.avgDurationSeconds} s, min ${m.minDurationSeconds} s, max ${m.maxDurationSeconds} s, total ${m.totalDurationSeconds} s`,
    `  views ${m.views.views} (open and closed facts of a view merged; ${m.views.closedViews} closed, ${m.views.totalViewSeconds} s viewed)`,
  ].join('\n')

/** "developer «A» / project «B»": the names the read side found in the dim_* replicas. */
export const renderScope = (scope: readonly ScopeLevel[]): string => scope.map((l) => `${l.level} «${l.name ?? l.id}»`).join(' / ')

export const renderFunnel = (developer: string, stages: readonly FunnelStageReport[]): string => {
  const max = Math.max(1, ...stages.map((s) => s.count))
  const lines = stages.map((s) => {
    if (s.status === 'no-source') return `  ${pad(s.stage, 15)}${'·'.repeat(3)} no data source`
    const bar = '█'.repeat(Math.max(s.count > 0 ? 1 : 0, Math.round((s.count / max) * 40)))
    const conv = s.conversionFromPrevious === undefined ? '' : `  (${(s.conversionFromPrevious * 100).toFixed(1)} % of previous)`
    return `  ${pad(s.stage, 15)}${bar} ${s.count}${conv}${s.status === 'preliminary' ? '  preliminary' : ''}`
  })
  return [`conversion funnel of ${developer}:`, ...lines].join('\n')
}
