import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { KAFKA_ADAPTERS, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import type { NpmStart } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { OwnToxiproxy } from '../../support/toxiproxy.js'
import { clickhousePort, proxiedDeployment, startService } from './proxied-service.js'

// Issue 36.3, timeouts that end: ClickHouse goes silent (a Toxiproxy `timeout` on both directions:
// the connection stays open, nothing passes, nothing is closed) while a batch is being inserted,
// and the service gets SIGTERM, as systemd or a container runtime send it to the node process. It
// must exit 0 within the bound docs/operations.md gives (the ClickHouse request timeout, then the
// group left), having committed nothing it did not insert; restarted with the wire clean, it
// stores every record exactly once by FactId.
const topics: string[] = []
const databases: string[] = []
let toxiproxy: OwnToxiproxy
beforeAll(async () => {
  toxiproxy = await OwnToxiproxy.start()
})
afterAll(async () => {
  toxiproxy?.stop()
  await removeRunResources(topics, databases)
})

const REQUEST_TIMEOUT_MS = 5000
/** docs/operations.md: a stop ends within the request timeout plus this (leaving the groups, closing). */
const STOP_MARGIN_MS = 10_000
const RECORDS = 200
const RETRY_AFTER_MS = 200

/** SIGTERM to the service's node process (its pid from the log), not npm's group; its exit time and code as npm reports them. */
const terminate = async (service: NpmStart): Promise<{ ms: number; code: number | null }> => {
  const pid = Number(service.logLine(/^consuming from/)?.['pid'])
  const at = Date.now()
  process.kill(pid, 'SIGTERM')
  const killer = setTimeout(() => void service.kill(), REQUEST_TIMEOUT_MS + STOP_MARGIN_MS + 60_000)
  const { code } = await service.exited
  clearTimeout(killer)
  return { ms: Date.now() - at, code }
}

describe.each(KAFKA_ADAPTERS)('SIGTERM while ClickHouse is silent (%s)', (adapter) => {
  it(`exits 0 within the request timeout + ${STOP_MARGIN_MS / 1000} s, commits nothing not inserted; restarted, every record is stored once`, async () => {
    const proxy = await toxiproxy.proxy(`clickhouse-silent-${adapter}`, clickhousePort())
    const d = await proxiedDeployment(adapter, 'silent', proxy, {
      DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      DEV_STATS_SINK_BACKOFF_INITIAL_MS: String(RETRY_AFTER_MS),
    })
    topics.push(...d.topics)
    databases.push(d.database)
    const topic = d.topicsOf('SESSION_ENDED').source
    const group = d.groupOf('SESSION_ENDED')
    const stored = async () => (await d.direct.select<{ id: string }>(sql`SELECT FactId AS id FROM ${ident(d.database)}.session_facts`)).map((r) => r.id)
    const before = sessionStream(topic, RECORDS / 2)
    const during = sessionStream(topic, RECORDS / 2)
    const broker = kafkaBroker(adapter)
    let service = await startService(d.env)
    try {
      await broker.producer().publish(before.records)
      await eventuallyAsync(async () => new Set(await stored()).size === RECORDS / 2 && (await lagOf(group, topic)) === 0, 60_000, 'the first half stored and committed')

      await proxy.add({ name: 'silent-up', type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } })
      await proxy.add({ name: 'silent-down', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } })
      const taken = service.output.length
      await broker.producer().publish(during.records)
      // The first insert of the second half fails (its request timeout, or the server closing the
      // idle keep-alive socket it was sent on); the signal comes while the retry, on a fresh
      // connection that only the request timeout ends, is on the wire.
      await eventuallyAsync(() => /"consumer":"session-ended".*"msg":"failed: insert"/.test(service.output.slice(taken)), 30_000, 'an insert of the second half failed')
      await new Promise((r) => setTimeout(r, RETRY_AFTER_MS * 3))
      const stop = await terminate(service)
      const stoppedLine = service.logLine(/^stopped$/)
      const lagAtStop = await lagOf(group, topic)
      const storedAtStop = new Set(await stored())

      expect(stop.code, service.output.slice(-3000)).toBe(0)
      expect(stoppedLine).toBeDefined()
      expect(stop.ms).toBeLessThan(REQUEST_TIMEOUT_MS + STOP_MARGIN_MS)
      expect(service.output.slice(taken)).not.toContain('"msg":"flushed"')
      // nothing of the second half committed (none of it reached the server)
      expect(lagAtStop).toBe(RECORDS / 2)
      expect([...during.expected].filter((id) => storedAtStop.has(id))).toEqual([])

      await proxy.clear()
      service = await startService(d.env)
      await eventuallyAsync(async () => new Set(await stored()).size >= RECORDS && (await lagOf(group, topic)) === 0, 90_000, 'the restarted service caught up')
      const restartStop = await terminate(service)
      expect(restartStop.code).toBe(0)

      const ids = await stored()
      const distinct = new Set(ids)
      const expected = new Set([...before.expected, ...during.expected])
      console.info(`[sigterm silent ${adapter}] exit ${stop.code} ${stop.ms} ms after SIGTERM (request timeout ${REQUEST_TIMEOUT_MS} ms); ` +
        `uncommitted at stop ${lagAtStop}; after restart: physical rows ${ids.length}, logical ${distinct.size}; restarted instance stopped in ${restartStop.ms} ms`)
      expect([...expected].filter((id) => !distinct.has(id))).toEqual([])
      expect([...distinct].filter((id) => !expected.has(id))).toEqual([])
      expect(distinct.size).toBe(RECORDS)
    } finally {
      await proxy.clear()
      await broker.close()
      await service.kill()
      await d.direct.close()
    }
  })
})
