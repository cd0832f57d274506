import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

// The shipped Prometheus rules, validated by the real promtool (Debian's prometheus package,
// installed here when missing, as the ClickHouse setup does): syntax and the unit tests of
// ops/prometheus/dev-stats.rules.test.yml (a long session does not fire the lag alert).
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const RULES = 'ops/prometheus/dev-stats.rules.yml'
const TESTS = 'ops/prometheus/dev-stats.rules.test.yml'

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: ROOT, encoding: 'utf8', timeout: 15 * 60_000 })
  return { status: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? String(r.error) : ''}` }
}

describe('Prometheus alert rules', () => {
  beforeAll(() => {
    const installed = run('bash', ['scripts/promtool.sh', 'install'])
    if (installed.status !== 0) throw new Error(`promtool is missing and could not be installed:\n${installed.output}`)
  })

  it('pass promtool check rules', () => {
    const r = run('promtool', ['check', 'rules', RULES])
    expect(r.output).toContain('SUCCESS: 4 rules found')
    expect(r.status).toBe(0)
  })

  it('pass promtool test rules: lag from arrival in Kafka (a long session stays silent), no commit while lagging, dimension gap, DLQ rate', () => {
    const r = run('promtool', ['test', 'rules', TESTS])
    expect(r.output).toContain('SUCCESS')
    expect(r.status).toBe(0)
  })

  it('alert on lag from the Kafka arrival histogram, never on the EventTime one', () => {
    const rules = readFileSync(`${ROOT}${RULES}`, 'utf8')
    expect(rules).toContain('dev_stats_arrival_lag_seconds_bucket')
    expect(rules).not.toMatch(/^\s+histogram_quantile.*dev_stats_ingest_lag_seconds/m)
  })
})
