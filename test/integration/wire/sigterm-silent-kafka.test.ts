import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { isolatedDeployment } from '../../support/deployment.js'
import { KAFKA_ADAPTERS, TEST_KAFKA_OPTIONS, kafkaBroker, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { npmRun, type NpmStart } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { OwnToxiproxy } from '../../support/toxiproxy.js'
import { OwnProxiedKafka } from './own-proxied-kafka.js'
import { startService } from './proxied-service.js'

// Issue 36.3, timeouts that end, on the Kafka side: the service reaches its (own) broker only
// through a Toxiproxy, which goes silent on both directions (a half-open connection) while the
// service is consuming. SIGTERM must still end the process within the bound docs/operations.md
// gives; restarted with the wire clean, every record is stored once by FactId.
const databases: string[] = []
let toxiproxy: OwnToxiproxy
let kafka: OwnProxiedKafka
beforeAll(async () => {
  toxiproxy = await OwnToxiproxy.start()
  kafka = await OwnProxiedKafka.start(toxiproxy, 'kafka')
}, 300_000)
afterAll(async () => {
  kafka?.stop()
  toxiproxy?.stop()
  await removeRunResources([], databases)
}, 120_000)

/**
 * docs/operations.md: a stop with the broker silent waits at most 10 s for a commit already out at
 * the signal and 10 s to leave the groups (the lag monitor's 5 + 5 s beside them), and then exits:
 * 20 s of timers, the exit's own work on top (20,037 ms in CI with a commit out).
 */
const KAFKA_STOP_BOUND_MS = 21_000
const RECORDS = 200
/** How long the broker stays silent before the signal: every request the clients had on the wire is then waiting. */
const SILENT_BEFORE_SIGNAL_MS = 5000

const terminate = async (service: NpmStart): Promise<{ ms: number; code: number | null }> => {
  const pid = Number(service.logLine(/^consuming from/)?.['pid'])
  const at = Date.now()
  process.kill(pid, 'SIGTERM')
  const killer = setTimeout(() => void service.kill(), KAFKA_STOP_BOUND_MS + 60_000)
  const { code } = await service.exited
  clearTimeout(killer)
  return { ms: Date.now() - at, code }
}

describe.each(KAFKA_ADAPTERS)('SIGTERM while Kafka is silent (%s)', (adapter) => {
  it('exits within the documented bound; restarted, every record is stored once', async () => {
    const d = isolatedDeployment(adapter, 'ksilent', { DEV_STATS_KAFKA_BROKERS: kafka.proxied })
    databases.push(d.database)
    for (const script of ['migrate', 'topics']) {
      const r = npmRun([script], d.env)
      expect(r.code, r.output).toBe(0)
    }
    const topic = d.topicsOf('SESSION_ENDED').source
    const group = d.groupOf('SESSION_ENDED')
    const direct = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: d.database })
    const stored = async () => (await direct.select<{ id: string }>(sql`SELECT FactId AS id FROM ${ident(d.database)}.session_facts`)).map((r) => r.id)
    const before = sessionStream(topic, RECORDS / 2)
    const during = sessionStream(topic, RECORDS / 2)
    const producer = kafkaBroker('kafkajs', { ...TEST_KAFKA_OPTIONS, brokers: [kafka.direct] })
    let service = await startService(d.env)
    try {
      await producer.producer().publish(before.records)
      await eventuallyAsync(async () => new Set(await stored()).size === RECORDS / 2 && (await kafka.lag(group, topic)) === 0, 60_000, 'the first half stored and committed')

      await kafka.proxy.add({ name: 'silent-up', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } })
      await kafka.proxy.add({ name: 'silent-down', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } })
      await producer.producer().publish(during.records)
      await new Promise((r) => setTimeout(r, SILENT_BEFORE_SIGNAL_MS))
      const stop = await terminate(service)
      expect(stop.code, service.output.slice(-3000)).toBe(0)
      expect(stop.ms, service.output.slice(-3000)).toBeLessThan(KAFKA_STOP_BOUND_MS)
      expect(service.logLine(/^stopped$/)).toBeDefined()

      await kafka.proxy.clear()
      service = await startService(d.env)
      await eventuallyAsync(async () => new Set(await stored()).size >= RECORDS && (await kafka.lag(group, topic)) === 0, 120_000, 'the restarted service caught up')
      const restartStop = await terminate(service)
      expect(restartStop.code).toBe(0)
      const ids = await stored()
      const distinct = new Set(ids)
      const expected = new Set([...before.expected, ...during.expected])
      console.info(`[sigterm silent kafka ${adapter}] exit ${stop.code} ${stop.ms} ms after SIGTERM; after restart: physical rows ${ids.length}, logical ${distinct.size}; restarted instance stopped in ${restartStop.ms} ms`)
      expect([...expected].filter((id) => !distinct.has(id))).toEqual([])
      expect(distinct.size).toBe(RECORDS)
    } finally {
      await kafka.proxy.clear()
      await producer.close()
      await service.kill()
      await direct.close()
    }
  }, 400_000)
})
