import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { resolveConsumer } from '../../../src/application/consumers/consumer-topics.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { binaryRecord, funnelEventPayload, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewEndedPayload, guid } from '../../support/events.js'
import { freePort } from '../../support/http.js'
import { KAFKA_BROKERS, kafkaBroker } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { npmRun } from '../../support/npm-script.js'
import { packTarball } from '../../support/packed-package.js'
import { nodeBinary, nodeVersion } from '../../support/node-versions.js'
import { removeRunResources } from '../../support/run-resources.js'

// Issue 17: the package as a host installs it. `npm pack` → a fresh project that installs the
// tarball with --omit=optional → strict `tsc` against the published .d.ts only → the example host
// (examples/host-service) runs on Node 22 and 24 against the real Kafka broker and ClickHouse
// server: events in, the host's own read call out, its own /metrics, SIGTERM → a clean exit.
const repo = fileURLToPath(new URL('../../..', import.meta.url))
const example = join(repo, 'examples', 'host-service')
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const work = mkdtempSync(join(tmpdir(), 'dev-stats-host-'))
const host = join(work, 'host')
const topics: string[] = []
const databases: string[] = []

const sh = (cmd: string, args: readonly string[], cwd: string, timeout = 600_000) => {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } })
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed with ${r.status ?? r.signal}:\n${output}`)
  return output
}

beforeAll(() => {
  const tgz = packTarball(work)
  cpSync(join(example, 'src'), join(host, 'src'), { recursive: true })
  cpSync(join(example, 'tsconfig.json'), join(host, 'tsconfig.json'))
  const pkg = JSON.parse(readFileSync(join(example, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  pkg.dependencies['dev-stats-ingest'] = `file:${tgz}`
  writeFileSync(join(host, 'package.json'), JSON.stringify(pkg, null, 2))
  sh('npm', ['install', '--omit=optional'], host)
  sh('npx', ['tsc', '-p', 'tsconfig.json'], host)
}, 900_000)

afterAll(async () => {
  await removeRunResources(topics, databases)
  rmSync(work, { recursive: true, force: true })
})

describe('the packed library in a host project', () => {
  it('installs lean: no chdb, no librdkafka client, no tests or benches in the package', () => {
    const installed = join(host, 'node_modules')
    for (const optional of ['chdb', '@chdb', '@confluentinc']) expect(existsSync(join(installed, optional)), optional).toBe(false)
    const lib = join(installed, 'dev-stats-ingest')
    expect(readdirSync(lib).sort()).toEqual(['CHANGELOG.md', 'README.md', 'dist', 'migrations', 'package.json'])
    expect(existsSync(join(lib, 'dist', 'index.d.ts'))).toBe(true)
    expect(existsSync(join(lib, 'dist', 'testing.js'))).toBe(true)
    const tgz = readdirSync(work).find((f) => f.endsWith('.tgz')) as string
    const size = Number(spawnSync('stat', ['-c', '%s', join(work, tgz)], { encoding: 'utf8' }).stdout.trim())
    // 450 KB with the code of the 16 consumers, the serving step, the day records and the read
    // API: the bound is against what must never ship (tests, benches, the bundled service: hundreds of KB each)
    expect(size).toBeLessThanOrEqual(480 * 1024)
  })

  it('choosing an optional client that is not installed is a typed error that says how to install it', () => {
    const attempt = (config: string) =>
      spawnSync(process.execPath, ['--input-type=module', '-e', `
        const { createDevStatsIngest } = await import('dev-stats-ingest')
        try { createDevStatsIngest({ config: ${config} }) } catch (e) { console.log(e.name, e.retriable, JSON.stringify(e.message)) }`], { cwd: host, encoding: 'utf8' })
    const embedded = attempt("{ store: 'embedded' }")
    expect(embedded.stdout, embedded.stderr).toMatch(/^EmbeddedStoreMissing false ".*npm install chdb@\^3\.4\.0/)
    const confluent = attempt("{ broker: 'confluent' }")
    expect(confluent.stdout, confluent.stderr).toMatch(/^ConfluentClientMissing false ".*CKJS_LINKING=dynamic npm install @confluentinc\/kafka-javascript/)
  })

  it('an internal module is not importable (the exports map)', () => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('dev-stats-ingest/dist/composition/container.js')"], { cwd: host, encoding: 'utf8' })
    expect(r.status).not.toBe(0)
    expect(r.stderr).toContain('ERR_PACKAGE_PATH_NOT_EXPORTED')
  })
})

const deployment = (tag: string) => {
  const database = `host_example_${tag}_${run}`
  const env: Record<string, string> = {
    DEV_STATS_BROKER: 'kafkajs',
    DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
    DEV_STATS_CLICKHOUSE_DATABASE: database,
    DEV_STATS_FLUSH_INTERVAL_MS: '300',
    DEV_STATS_LAG_INTERVAL_MS: '1000',
  }
  for (const c of CONSUMERS) {
    env[`DEV_STATS_TOPIC_${c.key}`] = `${c.topic}.host-${tag}-${run}`
    env[`DEV_STATS_GROUP_${c.key}`] = `${c.groupId}.host-${tag}-${run}`
  }
  const consumers = CONSUMERS.map((c) => resolveConsumer(c, { [c.key]: { topic: env[`DEV_STATS_TOPIC_${c.key}`], group: env[`DEV_STATS_GROUP_${c.key}`] } }))
  topics.push(...consumers.flatMap((c) => [c.topics.source, c.topics.deadLetter, c.topics.retry]))
  databases.push(database)
  const source = (key: string) => consumers.find((c) => c.spec.key === key)!.topics.source
  return { env, source }
}

class HostProcess {
  output = ''
  readonly exited: Promise<number | null>
  private readonly child: ChildProcess
  constructor(node: string, env: Record<string, string>) {
    this.child = spawn(node, ['dist/main.js'], { cwd: host, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    this.child.stdout?.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.child.stderr?.on('data', (d: Buffer) => void (this.output += d.toString()))
    this.exited = new Promise((r) => this.child.once('close', (code) => r(code)))
  }
  logged = (msg: string): boolean => this.output.split('\n').some((l) => l.startsWith('{') && (JSON.parse(l) as { msg?: string }).msg === msg)
  terminate(): void {
    if (this.child.exitCode === null) this.child.kill('SIGTERM')
  }
}

describe.each([22, 24])('the example host on Node %i', (major) => {
  it('ingests on the real servers, answers its own read call and /metrics, and stops on SIGTERM with exit 0', async () => {
    const node = nodeBinary(major)
    expect(nodeVersion(node)).toMatch(new RegExp(`^v${major}\\.`))
    const imported = spawnSync(node, ['--input-type=module', '-e', "const m = await import('dev-stats-ingest'); const t = await import('dev-stats-ingest/testing'); console.log(typeof m.createDevStatsIngest, typeof t.InMemoryBroker)"], { cwd: host, encoding: 'utf8' })
    expect(imported.stdout.trim(), imported.stderr).toBe('function function')

    const d = deployment(`n${major}`)
    const provisioned = npmRun(['topics'], d.env)
    expect(provisioned.code, provisioned.output).toBe(0)
    const port = await freePort()
    const service = new HostProcess(node, { ...d.env, HOST_PORT: String(port) })
    try {
      await eventuallyAsync(() => service.logged('host ready') || service.logged('dev-stats ingest did not start'), 120_000, `host ready:\n${service.output}`)
      expect(service.logged('host ready'), service.output).toBe(true)

      // Developer D's property object; sessions A and B viewed it, session C viewed nothing of D's.
      const p = path()
      const [a, b, c] = [guid(), guid(), guid()]
      const broker = kafkaBroker('kafkajs')
      await broker.producer().publish([binaryRecord(d.source('PROPERTY_OBJECT_UPSERTED'), propertyObjectUpsertedPayload(p))])
      await new Promise((r) => setTimeout(r, 1500)) // the dimension is in before the views, as in production
      await broker.producer().publish([
        binaryRecord(d.source('VIEW_ENDED'), viewEndedPayload(p, a)),
        binaryRecord(d.source('VIEW_ENDED'), viewEndedPayload(p, b)),
        ...[a, b, c].map((s) => binaryRecord(d.source('SESSION_ENDED'), sessionEndedPayload({ SessionId: s, UserId: null, DurationSeconds: 600 }))),
        binaryRecord(d.source('FAVORITES'), funnelEventPayload('FavoriteId', p.PropertyObjectId)),
      ])
      await broker.close()

      const url = `http://127.0.0.1:${port}`
      const sessions = async () => {
        const r = await fetch(`${url}/my/sessions?from=2026-11-30T00:00:00Z&to=2026-12-01T00:00:00Z`, { headers: { 'x-developer-id': p.DeveloperId } })
        return (await r.json()) as { sessions: number; guestSessions: number; avgDurationSeconds: number }
      }
      await eventuallyAsync(async () => (await sessions()).sessions === 2, 90_000, `two sessions of developer D:\n${service.output.slice(-2000)}`)
      expect(await sessions()).toMatchObject({ sessions: 2, guestSessions: 2, avgDurationSeconds: 600 })
      const favorites = async () => {
        const r = await fetch(`${url}/my/funnel?from=2026-11-30&to=2026-11-30`, { headers: { 'x-developer-id': p.DeveloperId } })
        return ((await r.json()) as { stage: string; count: number }[]).find((s) => s.stage === 'Favorites')?.count
      }
      await eventuallyAsync(async () => (await favorites()) === 1, 60_000, `the favorite counted:\n${service.output.slice(-2000)}`)
      expect((await fetch(`${url}/my/sessions?from=2026-11-30T00:00:00Z&to=2026-12-01T00:00:00Z`)).status).toBe(403)

      const metrics = await (await fetch(`${url}/metrics`)).text()
      expect(metrics).toMatch(/^dev_stats_session_facts_ingested_total\{consumer="session-ended"\} 3$/m)
      expect(metrics).toMatch(/^process_cpu_user_seconds_total /m) // the host's own metrics in the same registry
      expect((await fetch(`${url}/ready`)).status).toBe(200)
    } finally {
      service.terminate()
    }
    expect(await service.exited, service.output.slice(-2000)).toBe(0)
    expect(service.logged('host stopped')).toBe(true)
    // the library wrote nothing but through the host's logger: every output line is the host's pino JSON,
    // except Node 24's warning about kafkajs 2.2.4's own negative setTimeout (kafkajs issue #1751, unfixed upstream)
    const kafkajsTimerWarning = /TimeoutNegativeWarning: -\d+ is a negative number\.|^Timeout duration was set to 1\.$|^\(Use `node --trace-warnings/
    expect(service.output.split('\n').filter((l) => l !== '' && !l.startsWith('{"level"') && !kafkajsTimerWarning.test(l))).toEqual([])
  })
})
