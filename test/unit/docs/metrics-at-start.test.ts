import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/composition/config.js'
import { serveOps } from '../../../src/composition/ops.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { createDevStatsIngest } from '../../../src/index.js'
import { freePort } from '../../support/http.js'

const DOC = readFileSync(fileURLToPath(new URL('../../../docs/operations.md', import.meta.url)), 'utf8')

/** The metric families the doc's table lists; `dev_stats_<table>_ingested_total` is one per table named in its row. */
const documentedFamilies = (): string[] =>
  [...DOC.matchAll(/^\| `(dev_stats_[a-z_<>]+)` \|[^\n]*$/gm)].flatMap(([row, name]) =>
    name!.includes('<table>')
      ? [...row.matchAll(/`((?:session|property|funnel|dim)_[a-z_]+)`/g)].map((t) => name!.replace('<table>', t[1]!))
      : [name!],
  )

describe('/metrics right after start', () => {
  it('lists every metric family of docs/operations.md and no other, before any record was read', async () => {
    const families = documentedFamilies()
    expect(families).toContain('dev_stats_session_facts_ingested_total')
    expect(families).toContain('dev_stats_dim_property_object_ingested_total')
    expect(families.length).toBeGreaterThanOrEqual(22)
    const port = await freePort()
    const config = loadConfig({ DEV_STATS_HTTP_PORT: String(port), DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_LOG_LEVEL: 'silent' })
    const ingest = createDevStatsIngest({ config })
    await ingest.start()
    const ops = await serveOps(ingest, config.http, silentLogger)
    try {
      const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()
      const exported = new Set([...text.matchAll(/^# TYPE (dev_stats_\S+)/gm)].map((m) => m[1]))
      expect(families.filter((f) => !exported.has(f))).toEqual([])
      expect([...exported].filter((f) => !families.includes(f!))).toEqual([])
      // a counter of one consumer is there at 0, so that rate() and absent() see it from the start
      expect(text).toContain('dev_stats_sink_retries_total{consumer="session-ended"} 0')
      expect(text).toContain('dev_stats_session_facts_ingested_total{consumer="session-ended"} 0')
    } finally {
      await ops?.close()
      await ingest.stop()
    }
  })
})
