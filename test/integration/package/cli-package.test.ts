import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { binaryRecord, guid, sessionEndedPayload } from '../../support/events.js'
import { isolatedDeployment } from '../../support/deployment.js'
import { kafkaBroker } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { nodeBinary, nodeVersion } from '../../support/node-versions.js'
import { bareBin, bareEnv, packTarball, sh } from '../../support/packed-package.js'
import { removeRunResources } from '../../support/run-resources.js'

// Issue 34: the operator's command from the installed package. `npm pack` → an empty project that
// installs the tarball with --omit=optional on a PATH with no compiler → `npx dev-stats-ingest …`
// on Node 22 and 24 against the real Kafka broker and ClickHouse server, each exit code as the
// help says; `check` on a wrong broker, a wrong password and a missing topic, never printing a secret.
/** The packaged migrations by name, in order (what check lists and migrate applies). */
const MIGRATIONS = readdirSync(fileURLToPath(new URL('../../../migrations', import.meta.url))).filter((f) => f.endsWith('.sql')).sort().map((f) => f.replace(/\.sql$/, ''))
const work = mkdtempSync(join(tmpdir(), 'dev-stats-cli-'))
const host = join(work, 'host')
const topics: string[] = []
const databases: string[] = []

beforeAll(() => {
  const tgz = packTarball(work)
  const bin = bareBin(join(work, 'bin-install'))
  sh('mkdir', ['-p', host], work)
  writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'operator', version: '1.0.0', private: true }))
  sh('npm', ['install', tgz, '--omit=optional'], host, bareEnv(bin))
}, 900_000)

afterAll(async () => {
  await removeRunResources(topics, databases)
  rmSync(work, { recursive: true, force: true })
})

/** A deployment of its own (kafkajs, topics, groups and a database of this run), the HTTP server off. */
const deployment = (tag: string) => {
  const d = isolatedDeployment('kafkajs', `cli-${tag}`)
  topics.push(...d.topics)
  databases.push(d.database)
  return { env: d.env, database: d.database, source: (key: string) => d.topicsOf(key).source }
}

describe.each([22, 24])('npx dev-stats-ingest from the installed package on Node %i', (major) => {
  const node = nodeBinary(major)
  const path = bareBin(join(work, `bin-${major}`), node)
  /** `npx dev-stats-ingest <args>` in the host project, with only these settings and the bare PATH. */
  const npx = (args: readonly string[], env: Record<string, string> = {}) => {
    const r = spawnSync('npx', ['--no-install', 'dev-stats-ingest', ...args], { cwd: host, encoding: 'utf8', timeout: 180_000, env: { ...bareEnv(path), ...env } })
    return { code: r.status, stdout: r.stdout, output: `${r.stdout}${r.stderr}` }
  }

  it('runs on this Node version: --help, --version, wrong usage', () => {
    expect(nodeVersion(node)).toMatch(new RegExp(`^v${major}\\.`))
    // the bin's #! line runs the `node` of PATH
    expect(spawnSync('sh', ['-c', 'node --version'], { env: { PATH: path }, encoding: 'utf8' }).stdout).toMatch(new RegExp(`^v${major}\\.`))
    const help = npx(['--help'])
    expect(help.code, help.output).toBe(0)
    for (const command of ['start', 'migrate', 'topics', 'check', 'backfill', 'replay', 'dlq']) expect(help.stdout).toContain(`\n  ${command} `)
    for (const command of ['start', 'migrate', 'topics', 'check', 'backfill', 'replay', 'dlq']) {
      const own = npx([command, '--help'])
      expect(own.code, own.output).toBe(0)
      expect(own.stdout).toContain(`dev-stats-ingest ${command}`)
    }
    expect(npx(['--version']).stdout.trim()).toMatch(/^\d+\.\d+\.\d+/)
    expect(npx(['frobnicate']).code).toBe(2)
    expect(npx(['migrate', '--frobnicate']).code).toBe(2)
    expect(npx(['check', 'extra']).code).toBe(2)
    const printed = spawnSync(join(host, 'node_modules', '.bin', 'dev-stats-ingest'), ['start', '--help'], { cwd: host, encoding: 'utf8', env: { PATH: path } })
    expect(printed.status, printed.stderr).toBe(0)
  })

  it('check names the missing migrations and topics, then passes after migrate and topics; start ingests 25 records and exits 0 on SIGTERM; dlq summary and replay --dry-run', async () => {
    const d = deployment(`n${major}`)
    const before = npx(['check'], d.env)
    expect(before.code, before.output).toBe(1)
    expect(before.stdout).toMatch(new RegExp(`^FAIL {2}store .*lacks ${MIGRATIONS.length} migration\\(s\\): 0001_database`, 'm'))
    expect(before.stdout).toMatch(new RegExp(`^FAIL {2}topics .*${d.source('SESSION_ENDED').replaceAll('.', '\\.')}`, 'm'))
    expect(before.stdout).toMatch(/^ok {4}broker /m)

    const dry = npx(['migrate', '--dry-run'], d.env)
    expect(dry.code, dry.output).toBe(0)
    expect(dry.stdout).toContain('would apply 0001_database')
    const migrated = npx(['migrate'], d.env)
    expect(migrated.code, migrated.output).toBe(0)
    expect(migrated.stdout).toMatch(new RegExp(`^applied to .*${MIGRATIONS.at(-1)}$`, 'm'))
    expect(npx(['migrate'], d.env).stdout).toMatch(/is up to date/)
    const created = npx(['topics'], d.env)
    expect(created.code, created.output).toBe(0)
    expect(created.stdout).toContain(`${CONSUMERS.length * 3} created`)
    const after = npx(['check'], d.env)
    expect(after.code, after.output).toBe(0)
    expect(after.stdout).toMatch(/^every check passed/m)

    // started as a process manager would: the installed bin itself, so that SIGTERM reaches the service
    const service = spawn(join(host, 'node_modules', '.bin', 'dev-stats-ingest'), ['start'], { cwd: host, env: { HOME: process.env.HOME as string, PATH: path, ...d.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    service.stdout.on('data', (b: Buffer) => void (output += b.toString()))
    service.stderr.on('data', (b: Buffer) => void (output += b.toString()))
    const exited = new Promise<number | null>((r) => service.once('close', (code) => r(code)))
    const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: d.database })
    try {
      await eventuallyAsync(() => output.includes('"msg":"consuming from') || service.exitCode !== null, 120_000, `start consuming:\n${output}`)
      expect(output).toContain('"msg":"consuming from')
      const broker = kafkaBroker('kafkajs')
      await broker.producer().publish(Array.from({ length: 25 }, () => binaryRecord(d.source('SESSION_ENDED'), sessionEndedPayload({ SessionId: guid() }))))
      await broker.close()
      const rows = async () => Number((await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${ident(d.database)}.session_facts`))[0]?.n)
      await eventuallyAsync(async () => (await rows()) >= 25, 90_000, `25 session facts:\n${output.slice(-2000)}`)
      expect(await rows()).toBe(25)
    } finally {
      service.kill('SIGTERM')
      await session.close()
    }
    expect(await exited, output.slice(-2000)).toBe(0)
    expect(output).toContain('"msg":"stopped"')

    const summary = npx(['dlq', 'summary'], d.env)
    expect(summary.code, summary.output).toBe(0)
    const replay = npx(['replay', '--consumer', 'SESSION_ENDED', '--from', '2026-01-01T00:00:00Z', '--dry-run'], d.env)
    expect(replay.code, replay.output).toBe(0)
    expect(replay.stdout).toContain(d.source('SESSION_ENDED'))
  }, 600_000)

  it('check against a wrong broker, a wrong ClickHouse password and a missing topic exits 1 naming each, no secret printed', () => {
    const d = deployment(`bad${major}`)
    const secret = `pw-${guid()}`
    const r = npx(['check'], {
      ...d.env,
      DEV_STATS_KAFKA_BROKERS: '127.0.0.1:1',
      DEV_STATS_CLICKHOUSE_PASSWORD: secret,
    })
    expect(r.code, r.output).toBe(1)
    expect(r.stdout).toMatch(/^FAIL {2}store .*DEV_STATS_CLICKHOUSE_PASSWORD/ms)
    expect(r.stdout).toMatch(/^FAIL {2}broker .*127\.0\.0\.1:1/m)
    expect(r.stdout).toContain('DEV_STATS_KAFKA_BROKERS')
    expect(r.output).not.toContain(secret)
    const absent = `cli.absent.${guid()}`
    const missingTopic = npx(['check'], { ...d.env, DEV_STATS_TOPIC_SESSION_ENDED: absent })
    expect(missingTopic.code, missingTopic.output).toBe(1)
    expect(missingTopic.stdout).toMatch(new RegExp(`^FAIL {2}topics .*${absent.replaceAll('.', '\\.')}`, 'm'))
  })
})
