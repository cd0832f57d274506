import { describe, expect, it } from 'vitest'
import { EngineStats } from '../../../../src/application/engine/engine-stats.js'
import { EngineTelemetry } from '../../../../src/application/engine/engine-telemetry.js'
import { PromMetrics } from '../../../../src/adapters/observability/prom-metrics.js'
import { silentLogger } from '../../../../src/adapters/observability/silent-logger.js'
import type { FactRow } from '../../../../src/domain/fact-row.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../../src/testing/contracts/fact-rows.mother.js'

const DAY = 86_400_000
const NOW = at('2026-12-04T12:00:00Z')

const longSession = (): FactRow => {
  const f = sessionFact({ at: NOW - 40 * DAY })
  if (f.table !== 'session_facts') throw new Error('not a session fact')
  return { table: 'session_facts', row: { ...f.row, lastActivityAt: NOW - DAY, eventTime: NOW - DAY } }
}

// Issue 44.4: a fact the serving rows may answer differently for is counted, by reason, per consumer.
describe('facts outside the serving assumptions on /metrics', () => {
  it('counts late facts and long sessions as they are stored, and nothing for the others', async () => {
    const metrics = new PromMetrics()
    metrics.seed([{ name: 'view-ended', tables: ['property_object_view_facts'] }, { name: 'session-ended', tables: ['session_facts'] }])
    const seeded = await metrics.registry.metrics()
    expect(seeded).toContain('dev_stats_serving_out_of_assumption_total{consumer="view-ended",reason="late"} 0')
    expect(seeded).toContain('dev_stats_serving_out_of_assumption_total{consumer="session-ended",reason="long-session"} 0')
    expect(seeded).toContain('dev_stats_serving_link_partitions_dropped_total 0')

    const views = new EngineTelemetry(new EngineStats(), metrics, silentLogger, 'view-ended', 30)
    views.inserted([viewFact(dimPath(), id(), NOW - 31 * DAY), viewFact(dimPath(), id(), NOW - 29 * DAY), viewFact(dimPath(), id(), NOW)], NOW, 0.01)
    const sessions = new EngineTelemetry(new EngineStats(), metrics, silentLogger, 'session-ended', 30)
    sessions.inserted([longSession(), sessionFact({ at: NOW - DAY })], NOW, 0.01)

    const text = await metrics.registry.metrics()
    expect(text).toContain('dev_stats_serving_out_of_assumption_total{consumer="view-ended",reason="late"} 1')
    expect(text).toContain('dev_stats_serving_out_of_assumption_total{consumer="view-ended",reason="long-session"} 0')
    expect(text).toContain('dev_stats_serving_out_of_assumption_total{consumer="session-ended",reason="long-session"} 1')
    expect(text).toContain('dev_stats_serving_out_of_assumption_total{consumer="session-ended",reason="late"} 0')
  })
})
