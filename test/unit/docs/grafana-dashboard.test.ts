import { readFileSync } from 'node:fs'
import { Registry } from 'prom-client'
import { describe, expect, it } from 'vitest'
import { DIM_TABLE } from '../../../src/domain/dimension-upsert.js'
import type { FactTable } from '../../../src/domain/fact-row.js'
import { PromMetrics } from '../../../src/adapters/observability/prom-metrics.js'
import { registerOpsGauges } from '../../../src/adapters/observability/prom-ops-gauges.js'
import { DASHBOARD_FILE, dashboardExpressions, metricNamesIn } from '../../support/grafana-dashboard.js'

// What the service's registry exports: the spec §9 metrics, one ingested family per table, the ops gauges.
const TABLES: readonly FactTable[] = ['session_facts', 'property_object_view_facts', 'funnel_daily', 'dim_property_object', ...Object.values(DIM_TABLE)]

const exported = async (): Promise<Set<string>> => {
  const registry = new Registry()
  const metrics = new PromMetrics(registry)
  for (const table of TABLES) metrics.rowsIngested('c', table, 1)
  registerOpsGauges(registry, { now: () => 0, consumers: () => [], lagOf: () => [], memory: () => ({ budgetBytes: 0, usedBytes: 0 }), runsPeriodicPasses: true })
  const names = new Set<string>()
  for (const m of await registry.getMetricsAsJSON()) {
    names.add(m.name)
    if (String(m.type) === 'histogram') for (const s of ['_bucket', '_sum', '_count']) names.add(`${m.name}${s}`)
  }
  return names
}

describe('ops/grafana/dev-stats.json', () => {
  const expressions = dashboardExpressions()

  it('reads only metrics the service exports', async () => {
    const names = await exported()
    const used = [...new Set(expressions.flatMap((e) => metricNamesIn(e.expr)))]
    expect(used.length).toBeGreaterThanOrEqual(15)
    expect(used.filter((n) => !names.has(n))).toEqual([])
  })

  it('has a Prometheus datasource variable, a consumer variable, and every query of a consumer\'s metrics filters by consumer', () => {
    const d = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as { schemaVersion: number; templating: { list: { name: string; type: string; query: unknown }[] } }
    expect(d.schemaVersion).toBeGreaterThanOrEqual(36)
    expect(d.templating.list.map((v) => [v.name, v.type])).toEqual([['datasource', 'datasource'], ['consumer', 'query']])
    // the memory budget, the reconciliation and the link retention are the process's, not a consumer's
    const PROCESS_WIDE = ['dev_stats_memory_budget_bytes', 'dev_stats_memory_used_bytes', 'dev_stats_serving_repaired_rows_total', 'dev_stats_serving_link_partitions_dropped_total', 'dev_stats_serving_assumption_breaches']
    const processWide = (expr: string) => metricNamesIn(expr).every((n) => PROCESS_WIDE.includes(n))
    expect(expressions.filter((e) => !e.expr.includes('consumer=~"$consumer"') && !processWide(e.expr))).toEqual([])
  })
})
