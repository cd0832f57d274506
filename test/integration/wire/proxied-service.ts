import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { isolatedDeployment, type Deployment } from '../../support/deployment.js'
import { freePort } from '../../support/http.js'
import { lagOf, recordsIn } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { TEST_SECRET } from '../../support/tokens.js'
import type { WireProxy } from '../../support/toxiproxy.js'

/** The shared ClickHouse server's HTTP port, what a proxy in front of it forwards to. */
export const clickhousePort = (): number => Number(new URL(clickhouseUrl()).port)

const secretFile = (): string => {
  const file = join(mkdtempSync(join(tmpdir(), 'wire-secret-')), 'jwt-secret')
  writeFileSync(file, `${TEST_SECRET}\n`, { mode: 0o600 })
  return file
}

export interface ProxiedDeployment extends Deployment {
  /** The service's /metrics, /health and read API. */
  readonly base: string
  /** A session straight to the server, past the proxy: what the test reads the truth with. */
  readonly direct: ClickHouseSession
}

/**
 * An isolated `npm start` deployment (own topics, groups, database) whose ClickHouse is reached only
 * through `proxy`, with the read API on; migrated and its topics created, the proxy still clean.
 */
export const proxiedDeployment = async (adapter: string, name: string, proxy: WireProxy, env: Record<string, string> = {}): Promise<ProxiedDeployment> => {
  const port = await freePort()
  const d = isolatedDeployment(adapter, name, {
    DEV_STATS_CLICKHOUSE_URL: `http://127.0.0.1:${proxy.port}`,
    DEV_STATS_HTTP_HOST: '127.0.0.1',
    DEV_STATS_HTTP_PORT: String(port),
    DEV_STATS_READ_API_JWT_SECRET_FILE: secretFile(),
    DEV_STATS_FUNNEL_ENABLED: 'true',
    ...env,
  })
  const migrated = npmRun(['migrate'], d.env)
  expect(migrated.code, migrated.output).toBe(0)
  const topics = npmRun(['topics'], d.env)
  expect(topics.code, topics.output).toBe(0)
  const direct = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: d.database })
  return { ...d, base: `http://127.0.0.1:${port}`, direct }
}

/** `npm start` with `env`, once it consumes (fails loudly with its output when it exits instead). */
export const startService = async (env: Record<string, string>): Promise<NpmStart> => {
  const s = new NpmStart(env)
  await eventuallyAsync(() => s.logLine(/^consuming from/) !== undefined || s.output.includes('dev-stats ingest:'), 90_000, `npm start consuming:\n${s.output}`)
  expect(s.logLine(/^consuming from/), s.output).toBeDefined()
  return s
}

/** The sum of every sample of a Prometheus metric (all label sets) on the service's /metrics. */
export const metricSum = async (base: string, name: string): Promise<number> => {
  const text = await (await fetch(`${base}/metrics`)).text()
  return text.split('\n').filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `)).reduce((n, l) => n + Number(l.split(' ').at(-1)), 0)
}

/** Records on every consumer's dead-letter topic (end offsets summed). */
export const deadLettered = async (d: Deployment): Promise<number> => {
  let n = 0
  for (const c of d.consumers) n += await recordsIn(c.topics.deadLetter)
  return n
}

/** Every consumer group's lag on its source topic (end offset − committed), summed. */
export const uncommitted = async (d: Deployment): Promise<number> => {
  let n = 0
  for (const c of d.consumers) n += await lagOf(c.groupId, c.topics.source)
  return n
}
