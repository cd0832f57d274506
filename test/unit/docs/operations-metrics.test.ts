import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/composition/config.js'
import { serveOps } from '../../../src/composition/ops.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { createDevStatsIngest } from '../../../src/index.js'
import { freePort } from '../../support/http.js'

const DOC = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8')

describe('docs/operations.md: the HTTP endpoints section', () => {
  it('names every metric /metrics exports', async () => {
    const port = await freePort()
    const config = loadConfig({ DEV_STATS_HTTP_PORT: String(port), DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_LOG_LEVEL: 'silent' })
    const ops = await serveOps(createDevStatsIngest({ config }), config.http, silentLogger)
    try {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      const exported = [...text.matchAll(/^# TYPE (dev_stats_\S+)/gm)].map((m) => m[1] as string)
      expect(exported.length).toBeGreaterThanOrEqual(15)
      expect(exported.filter((name) => !DOC.includes(`\`${name}\``))).toEqual([])
    } finally {
      await ops?.close()
    }
  })

  it('names every alert of the shipped rules', () => {
    const rules = readFileSync(fileURLToPath(new URL('../../../ops/prometheus/dev-stats.rules.yml', import.meta.url)), 'utf8')
    const alerts = [...rules.matchAll(/- alert: (\S+)/g)].map((m) => m[1] as string)
    expect(alerts).toHaveLength(4)
    expect(alerts.filter((a) => !DOC.includes(`\`${a}\``))).toEqual([])
  })
})
