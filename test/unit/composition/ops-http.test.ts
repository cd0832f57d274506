import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { SESSION_ENDED_TOPIC } from '../../../src/application/handlers/session-ended.handler.js'
import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { serveOps } from '../../../src/composition/ops.js'
import { createDevStatsIngest } from '../../../src/index.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { freePort, until } from '../../support/http.js'

describe('ops HTTP endpoints of the composed service (in-memory broker and store, real HTTP)', () => {
  const cleanup: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const c of cleanup.splice(0).reverse()) await c()
  })

  it('serves liveness, readiness after every consumer joined, and the metrics with lag and progress', async () => {
    const port = await freePort()
    const config = loadConfig({ DEV_STATS_HTTP_PORT: String(port), DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_LAG_INTERVAL_MS: '50', DEV_STATS_FLUSH_INTERVAL_MS: '20', DEV_STATS_LOG_LEVEL: 'silent' })
    const broker = new InMemoryBroker()
    const ingest = createDevStatsIngest({ config, ports: { broker } })
    const ops = await serveOps(ingest, config.http, silentLogger)
    cleanup.push(async () => ops?.close())
    const url = `http://127.0.0.1:${port}`

    expect((await fetch(`${url}/health/live`)).status).toBe(200)
    const before = await fetch(`${url}/health/ready`)
    expect(before.status).toBe(503)
    expect(((await before.json()) as { reasons: string[] }).reasons).toContain('session-ended: has not joined its consumer group')

    await ingest.start()
    cleanup.push(() => ingest.stop())
    expect(await (await fetch(`${url}/health/ready`)).json()).toEqual({ status: 'ready', reasons: [] })

    const topic = SESSION_ENDED_TOPIC
    await broker.producer().publish(Array.from({ length: 4 }, () => binaryRecord(topic, sessionEndedPayload())))
    const metrics = async () => (await fetch(`${url}/metrics`)).text()
    await until('4 rows ingested and lag 0', async () => {
      const text = await metrics()
      return text.includes('dev_stats_session_facts_ingested_total{consumer="session-ended"} 4')
        && text.includes(`dev_stats_consumer_lag_records{consumer="session-ended",topic="${topic}",partition="0"} 0`)
    })
    const text = await metrics()
    expect(text).toMatch(/^dev_stats_seconds_since_last_commit\{consumer="session-ended"\} \d/m)
    expect(text).toMatch(/^dev_stats_arrival_lag_seconds_count\{consumer="session-ended"\} 4$/m)
    expect(text).toMatch(/^dev_stats_parked_in_memory\{consumer="session-ended"\} 0$/m)
    expect(text).toMatch(/^dev_stats_retrying_seconds\{consumer="session-ended"\} 0$/m)
    expect(text).toMatch(/^dev_stats_consumer_joined\{consumer="session-ended"\} 1$/m)
    expect((await fetch(`${url}/nowhere`)).status).toBe(404)
  })

  it('exports every metric the shipped alert rules use', async () => {
    const port = await freePort()
    const config = loadConfig({ DEV_STATS_HTTP_PORT: String(port), DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_LOG_LEVEL: 'silent' })
    const ops = await serveOps(createDevStatsIngest({ config }), config.http, silentLogger)
    cleanup.push(async () => ops?.close())
    const exported = new Set([...(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text()).matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1]))
    const rules = readFileSync(fileURLToPath(new URL('../../../ops/prometheus/dev-stats.rules.yml', import.meta.url)), 'utf8')
    const used = new Set([...rules.matchAll(/\b(dev_stats_[a-z_]+)/g)].map((m) => (m[1] as string).replace(/_(bucket|count|sum)$/, '')))
    expect(used.size).toBeGreaterThanOrEqual(5)
    expect([...used].filter((name) => !exported.has(name))).toEqual([])
  })

  it('is off with DEV_STATS_HTTP_PORT=0 and rejects an invalid port naming the setting', async () => {
    const off = loadConfig({ DEV_STATS_HTTP_PORT: '0', DEV_STATS_LOG_LEVEL: 'silent' })
    expect(await serveOps(createDevStatsIngest({ config: off }), off.http, silentLogger)).toBeUndefined()
    expect(loadConfig({}).http).toEqual({ host: '0.0.0.0', port: 9464, readyMaxRetrySeconds: 120 })
    expect(loadConfig({}).lagIntervalMs).toBe(15_000)
    for (const [setting, value] of [['DEV_STATS_HTTP_PORT', '70000'], ['DEV_STATS_HTTP_PORT', 'x'], ['DEV_STATS_READY_MAX_RETRY_SECONDS', '0'], ['DEV_STATS_HTTP_HOST', 'a b']]) {
      expect(() => loadConfig({ [setting as string]: value })).toThrow(ConfigError)
      expect(() => loadConfig({ [setting as string]: value })).toThrow(setting)
    }
  })
})
