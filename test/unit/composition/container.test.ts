import { describe, expect, it } from 'vitest'
import type { IngestService } from '../../../src/application/ingest-service.js'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'

describe('composition root', () => {
  it.each([
    ['DEV_STATS_BROKER', 'rabbitmq'],
    ['DEV_STATS_STORE', 'postgres'],
    ['DEV_STATS_BATCH_MAX_ROWS', '-3'],
    ['DEV_STATS_FLUSH_INTERVAL_MS', 'soon'],
    ['DEV_STATS_FUNNEL_ENABLED', 'maybe'],
    ['DEV_STATS_LOG_LEVEL', 'loud'],
  ])('an invalid %s stops start-up with a message naming it', (setting, value) => {
    expect(() => loadConfig({ [setting]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [setting]: value })).toThrow(setting)
  })

  it('the sink backoff cap may not be below its start', () => {
    expect(() => loadConfig({ DEV_STATS_SINK_BACKOFF_INITIAL_MS: '5000', DEV_STATS_SINK_BACKOFF_MAX_MS: '100' })).toThrow('DEV_STATS_SINK_BACKOFF_MAX_MS')
  })

  it('defaults: 1000 rows / 5 s, backoff 1 s → 60 s, funnel flag off', () => {
    const c = loadConfig({})
    expect([c.engine.maxBatchRows, c.engine.flushIntervalMs, c.engine.sinkBackoff, c.funnelEnabled]).toEqual([1000, 5000, { initialMs: 1000, maxMs: 60_000 }, false])
  })

  it('dev-stats.funnel.enabled off: the lead-created consumer is not started; on: it is', () => {
    const names = (env: Record<string, string>) =>
      createContainer(loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', ...env })).get<IngestService>(TOKENS.IngestService).engines.map((e) => e.name)
    expect(names({})).not.toContain('funnel-lead-created')
    expect(names({ DEV_STATS_FUNNEL_ENABLED: 'true' })).toContain('funnel-lead-created')
  })

  it('the store probe fails with a retriable StoreError for an unreachable ClickHouse, and passes for memory', async () => {
    const probe = (env: Record<string, string>) => createContainer(loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', ...env })).get<() => Promise<void>>(TOKENS.StoreProbe)()
    await expect(probe({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: 'http://127.0.0.1:1' })).rejects.toMatchObject({ name: 'StoreError', retriable: true })
    await expect(probe({})).resolves.toBeUndefined()
  })

  it('topics and groups can be overridden per consumer', () => {
    const c = loadConfig({ DEV_STATS_TOPIC_SESSION_ENDED: 'x.sessions', DEV_STATS_GROUP_SESSION_ENDED: 'g1' })
    expect(c.topics.SESSION_ENDED).toEqual({ topic: 'x.sessions', group: 'g1' })
  })
})
