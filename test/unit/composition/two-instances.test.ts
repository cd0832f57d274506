import fs from 'node:fs'
import { register } from 'prom-client'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { SESSION_ENDED_TOPIC } from '../../../src/application/handlers/session-ended.handler.js'
import { createDevStatsIngest, type DevStatsIngest } from '../../../src/index.js'
import { InMemoryBroker } from '../../../src/testing.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { until } from '../../support/http.js'

const SIGNALS = ['SIGTERM', 'SIGINT', 'SIGHUP', 'uncaughtException', 'unhandledRejection', 'exit', 'beforeExit'] as const
const listeners = () => SIGNALS.map((s) => process.listenerCount(s))

describe('two library instances in one process (spec §8a)', () => {
  const running: DevStatsIngest[] = []
  afterEach(async () => {
    vi.restoreAllMocks()
    for (const i of running.splice(0)) await i.stop()
  })

  it('run side by side on their own registries, install no handler, touch no global registry, write nothing to stdout', async () => {
    const before = listeners()
    const globalMetrics = (await register.getMetricsAsJSON()).length
    const stdout = vi.spyOn(process.stdout, 'write')
    const stderr = vi.spyOn(process.stderr, 'write')
    // pino and other fast loggers write to fd 1 and 2 through fs, past process.stdout
    const fdWrites = vi.spyOn(fs, 'writeSync')
    const fdWritesAsync = vi.spyOn(fs, 'write')
    const toStdio = () => [...fdWrites.mock.calls, ...fdWritesAsync.mock.calls].filter(([fd]) => fd === 1 || fd === 2)
    const brokers = [new InMemoryBroker(), new InMemoryBroker()]
    const [a, b] = brokers.map((broker) => createDevStatsIngest({ config: { engine: { flushIntervalMs: 20 } }, ports: { broker } })) as [DevStatsIngest, DevStatsIngest]
    running.push(a, b)
    await Promise.all([a.start(), b.start()])

    await brokers[0]!.producer().publish(Array.from({ length: 3 }, () => binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload())))
    await brokers[1]!.producer().publish(Array.from({ length: 5 }, () => binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload())))
    const ingested = async (i: DevStatsIngest) => (await i.registry.metrics()).match(/^dev_stats_session_facts_ingested_total\{consumer="session-ended"\} (\d+)$/m)?.[1]
    await until('both instances ingested their own records', async () => (await ingested(a)) === '3' && (await ingested(b)) === '5')
    expect(a.registry).not.toBe(b.registry)
    expect((await a.readiness()).ready).toBe(true)

    await Promise.all([a.stop(), b.stop()])
    expect(listeners()).toEqual(before)
    expect((await register.getMetricsAsJSON()).length).toBe(globalMetrics)
    expect(stdout).not.toHaveBeenCalled()
    expect(stderr).not.toHaveBeenCalled()
    expect(toStdio()).toEqual([])
  })

  it('an invalid setting is a ConfigError naming its path; two at once are named together', () => {
    expect(() => createDevStatsIngest({ config: { engine: { maxBatchRows: -1 } } })).toThrow('config.engine.maxBatchRows must be a positive integer, got -1')
    expect(() => createDevStatsIngest({ config: { broker: 'rabbitmq' as 'kafkajs', clickhouse: { database: 'a b' } } })).toThrow(
      /config\.broker must be one of memory\|kafkajs\|confluent.*config\.clickhouse\.database must be an identifier/,
    )
  })

  it('a start that cannot reach the store is a StartupError that says where, and stop() still returns', async () => {
    const i = createDevStatsIngest({ config: { store: 'clickhouse', clickhouse: { url: 'http://127.0.0.1:1' } }, ports: { broker: new InMemoryBroker() } })
    running.push(i)
    await expect(i.start()).rejects.toMatchObject({ name: 'StartupError', failure: 'store-unreachable', message: expect.stringContaining('cannot reach ClickHouse at http://127.0.0.1:1') })
  })
})
