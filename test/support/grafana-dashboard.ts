import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

export const DASHBOARD_FILE = fileURLToPath(new URL('../../ops/grafana/dev-stats.json', import.meta.url))
export const RULES_FILE = fileURLToPath(new URL('../../ops/prometheus/dev-stats.rules.yml', import.meta.url))

interface Panel {
  readonly title: string
  readonly panels?: readonly Panel[]
  readonly targets?: readonly { readonly refId: string; readonly expr: string }[]
}

export interface PanelExpression {
  readonly panel: string
  readonly refId: string
  readonly expr: string
}

/** Every query of every panel (rows' nested panels included), as written in the dashboard. */
export const dashboardExpressions = (file = DASHBOARD_FILE): readonly PanelExpression[] => {
  const { panels } = JSON.parse(readFileSync(file, 'utf8')) as { panels: readonly Panel[] }
  const all = (ps: readonly Panel[]): Panel[] => ps.flatMap((p) => [p, ...all(p.panels ?? [])])
  return all(panels).flatMap((p) => (p.targets ?? []).map((t) => ({ panel: p.title, refId: t.refId, expr: t.expr })))
}

/** The dashboard's variables as Grafana substitutes them: every consumer (`All` is `.*`) and a rate window. */
export const withVariables = (expr: string, rateInterval = '1m'): string =>
  expr.replaceAll('$consumer', '.*').replaceAll('${consumer}', '.*').replaceAll('$__rate_interval', rateInterval).replaceAll('$__interval', rateInterval)

/** Names of the service's metrics an expression reads (histogram series keep their _bucket/_sum/_count). */
export const metricNamesIn = (expr: string): readonly string[] => [...new Set(expr.match(/\bdev_stats_[a-z0-9_]+/g) ?? [])]

/** An alert's condition without its thresholds (`> 900`, `> 1/60`): what must have series while the alert is quiet. */
export const withoutThresholds = (expr: string): string => expr.replace(/\s*>\s*[0-9.e+-]+(\s*\/\s*[0-9.]+)?/g, '')
