import * as tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isolatedDeployment, type Deployment } from '../../support/deployment.js'
import { KAFKA_BROKERS } from '../../support/kafka.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { OwnToxiproxy, type ToxicSpec, type WireProxy } from '../../support/toxiproxy.js'
import { selfSignedCert } from '../../support/self-signed-cert.js'

// Issue 47.2: `npm start` behind a proxy that resets, goes silent or cuts the broker's answers
// short names the network fault, never TLS, and tries again until the fault is gone; in front of a
// real TLS listener it still says TLS and does not wait. The same for a reset on the way to
// ClickHouse (found by the wire-fault soak: it was told as "use an https:// URL" and not retried).
const KAFKA = KAFKA_BROKERS[0] as string

const cases: readonly { readonly name: string; readonly failure: string; readonly said: RegExp; readonly toxics: readonly Omit<ToxicSpec, 'name'>[] }[] = [
  { name: 'reset', failure: 'reset', said: /the connection was reset before any answer/, toxics: [{ type: 'reset_peer', stream: 'downstream', attributes: { timeout: 0 } }] },
  { name: 'silent', failure: 'silent', said: /no answer, and no answer to a TLS handshake either/, toxics: [{ type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } }, { type: 'timeout', stream: 'upstream', attributes: { timeout: 0 } }] },
  { name: 'cut short', failure: 'cut-short', said: /the answer was cut short after \d+ bytes/, toxics: [{ type: 'limit_data', stream: 'downstream', attributes: { bytes: 10 } }] },
]

describe('npm start behind a bad network at start-up', () => {
  let toxiproxy: OwnToxiproxy
  let proxy: WireProxy
  let d: Deployment
  beforeAll(async () => {
    toxiproxy = await OwnToxiproxy.start()
    proxy = await toxiproxy.proxy('startup-kafka', Number(KAFKA.split(':')[1]))
    d = isolatedDeployment('kafkajs', 'startup-net', { DEV_STATS_KAFKA_BROKERS: `127.0.0.1:${proxy.port}`, DEV_STATS_STARTUP_TIMEOUT_SECONDS: '120' })
    for (const script of ['migrate', 'topics']) {
      const r = npmRun([script], { ...d.env, DEV_STATS_KAFKA_BROKERS: KAFKA })
      expect(r.code, r.output).toBe(0)
    }
  })
  afterAll(async () => {
    toxiproxy?.stop()
    if (d) await removeRunResources(d.topics, [d.database])
  })

  it.each(cases)('$name: named as a network fault at the proxy\'s address, never TLS, tried again, consuming once it is gone', async ({ failure, said, toxics }) => {
    for (const [i, t] of toxics.entries()) await proxy.add({ ...t, name: `${failure}-${i}` })
    const s = new NpmStart(d.env)
    try {
      await eventuallyAsync(() => s.logLine(/trying again$/) !== undefined || s.output.includes('dev-stats ingest:'), 90_000, `a retried start-up failure:\n${s.output}`)
      const retry = s.logLine(/trying again$/)
      expect(retry, s.output).toMatchObject({ failure: 'broker-unreachable', attempt: 1 })
      expect(String(retry?.['msg']), s.output).toContain(`Kafka listener 127.0.0.1:${proxy.port}`)
      expect(String(retry?.['msg'])).toMatch(said)
      expect(s.output).not.toMatch(/TLS listener|expects TLS/)
      await proxy.clear()
      await eventuallyAsync(() => s.logLine(/^consuming from/) !== undefined || s.output.includes('dev-stats ingest:'), 120_000, `consuming after the fault:\n${s.output}`)
      expect(s.logLine(/^consuming from/), s.output).toBeDefined()
    } finally {
      await proxy.clear()
      await s.stop()
    }
  }, 240_000)

  it('a reset on the way to ClickHouse: tried again, never told as HTTPS, consuming once it is gone', async () => {
    const ch = await toxiproxy.proxy('startup-clickhouse', Number(new URL(clickhouseUrl()).port))
    await ch.add({ name: 'reset-clickhouse', type: 'reset_peer', stream: 'downstream', attributes: { timeout: 0 } })
    const s = new NpmStart({ ...d.env, DEV_STATS_KAFKA_BROKERS: KAFKA, DEV_STATS_CLICKHOUSE_URL: `http://127.0.0.1:${ch.port}` })
    try {
      await eventuallyAsync(() => s.logLine(/trying again$/) !== undefined || s.output.includes('dev-stats ingest:'), 90_000, `a retried start-up failure:\n${s.output}`)
      expect(s.logLine(/trying again$/), s.output).toMatchObject({ failure: 'store-unreachable', attempt: 1 })
      await ch.clear()
      await eventuallyAsync(() => s.logLine(/^consuming from/) !== undefined || s.output.includes('dev-stats ingest:'), 120_000, `consuming after the fault:\n${s.output}`)
      expect(s.logLine(/^consuming from/), s.output).toBeDefined()
      expect(s.output).not.toMatch(/serves HTTPS|https:\/\//)
    } finally {
      await ch.clear()
      await s.stop()
    }
  }, 240_000)

  it('a real TLS listener: says TLS at once and does not try again', async () => {
    const cert = selfSignedCert()
    const server = tls.createServer({ key: cert.key, cert: cert.cert })
    server.on('tlsClientError', () => undefined)
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.address() as { port: number }).port)))
    try {
      const s = new NpmStart({ ...d.env, DEV_STATS_KAFKA_BROKERS: `127.0.0.1:${port}` })
      const exit = await s.exited
      expect(exit.code, s.output).toBe(1)
      expect(s.output).toMatch(new RegExp(`Kafka listener 127\\.0\\.0\\.1:${port}: .*TLS listener`))
      expect(s.output).toMatch(/the listener expects TLS: check DEV_STATS_KAFKA_SECURITY_PROTOCOL/)
      expect(s.logLine(/trying again$/), s.output).toBeUndefined()
    } finally {
      server.close()
      cert.remove()
    }
  }, 120_000)
})
