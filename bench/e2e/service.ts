import { execFileSync, execSync, spawn } from 'node:child_process'
import { createWriteStream } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { topicsToProvision } from '../../src/application/consumers/consumer-topics.js'
import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { KafkaJsTopicCatalog } from '../../src/adapters/kafka/kafkajs/kafkajs-topic-catalog.js'
import { loadConfig } from '../../src/composition/config.js'
import { allConsumersOf } from '../../src/composition/consumers.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { CLICKHOUSE_URL, KAFKA_BROKERS } from './infra.js'
import { processUsage, type ProcessUsage } from './process-usage.js'
import { parseStartLine, scriptsOf, type StartLine } from './start-line.js'
import { freePort } from '../../test/support/http.js'

// Contenders (b) and (c): the service as `npm start` runs it (package.json's command line and
// default settings), with only the session-ended consumer pointed at the bench topic, and a database of
// its own. Every consumer gets a group of its own (and so its own retry topic), so that no other
// `npm start` on the same broker joins its groups and stalls it in a rebalance. The command runs
// without npm in between, so that the child's pid is the service itself (its RSS is the figure).
// npm's own start-up and the prestart step (the bundle, rebuilt only when a source changed) run
// before the clock starts.

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)))

/** Runs package.json's `prestart`, then reads its `start` line. */
const startLine = (repo: string): StartLine => {
  const { prestart, start } = scriptsOf(repo)
  if (prestart) execSync(prestart, { cwd: repo, stdio: 'inherit' })
  return parseStartLine(start)
}

export interface ServiceSpec {
  readonly client: 'kafkajs' | 'confluent'
  readonly db: string
  readonly topic: string
  readonly group: string
  readonly extraEnv?: Readonly<Record<string, string>>
  readonly profileDir?: string
  /** Keep the service's log (stdout) in this file. */
  readonly logFile?: string
  /** The checkout whose `npm start` runs (default: this one); bench:e2e --against runs another's. */
  readonly repo?: string
  /** Every consumer's source topic by registry key (--all-topics); default: only session-ended's is `topic`. */
  readonly topics?: Readonly<Record<string, string>>
  /** Above 1: `npm start -- --workers N` (its figures are the primary's and its workers'). */
  readonly workers?: number
}

export interface ServiceRun {
  readonly table: string
  /** The service process (npm start's node; with workers, their primary). */
  readonly pid: number
  /** Topics made for this run (retry topics of its groups), to delete afterwards. */
  readonly createdTopics: readonly string[]
  readonly startedAt: number
  /** Resolves when the service logged that it is consuming (every group joined, by every worker). */
  readonly ready: Promise<number>
  /** Its /metrics, /health port on 127.0.0.1. */
  readonly httpPort: number
  /** SIGTERM, wait for the exit; returns peak RSS and CPU time sampled up to the signal. */
  stop(): Promise<ProcessUsage>
}

export const startService = async (spec: ServiceSpec): Promise<ServiceRun> => {
  const cwd = spec.repo ?? repo
  const start = startLine(cwd)
  if (cwd === repo) {
    const session = serverSession({ url: CLICKHOUSE_URL, user: process.env.DEV_STATS_CLICKHOUSE_USER ?? 'default', password: process.env.DEV_STATS_CLICKHOUSE_PASSWORD ?? '', database: spec.db })
    await migrate(session)
    await session.close()
  }
  const httpPort = await freePort()
  // One file per thread (tsx's loader runs in its own): the busiest one is the service.
  const profile = spec.profileDir ? ['--cpu-prof', '--cpu-prof-dir', `${spec.profileDir}/${spec.client}`] : []
  const env = {
    ...process.env,
    DEV_STATS_BROKER: spec.client,
    DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: CLICKHOUSE_URL,
    DEV_STATS_CLICKHOUSE_DATABASE: spec.db,
    // Every other consumer reads an empty topic of its own: the shared topics' backlog (left by
    // tests or a manual run) would otherwise be ingested alongside and skew the figures.
    ...Object.fromEntries(CONSUMERS.map((c) => [`DEV_STATS_TOPIC_${c.key}`, `${spec.group}-${c.key.toLowerCase()}`])),
    DEV_STATS_TOPIC_SESSION_ENDED: spec.topic,
    ...Object.fromEntries(Object.entries(spec.topics ?? {}).map(([key, topic]) => [`DEV_STATS_TOPIC_${key}`, topic])),
    ...Object.fromEntries(CONSUMERS.map((c) => [`DEV_STATS_GROUP_${c.key}`, `${spec.group}-${c.key.toLowerCase()}`])),
    DEV_STATS_HTTP_PORT: String(httpPort),
    ...spec.extraEnv,
  }
  const config = loadConfig(env)
  const { created } = await new KafkaJsTopicCatalog(config.kafka).provision(topicsToProvision(allConsumersOf(config)))
  // another checkout's database gets that checkout's migrations, as its own `migrate` applies them
  if (cwd !== repo) execFileSync(process.execPath, [...start.args.slice(0, -1), 'migrate'], { cwd, env: { ...env, ...start.env }, stdio: 'inherit' })
  const startedAt = performance.now()
  const workers = spec.workers ?? 1
  const child = spawn(process.execPath, [...profile, ...start.args, ...(workers > 1 ? ['--workers', String(workers)] : [])], {
    cwd,
    env: { ...env, ...start.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const usage = processUsage(child.pid as number)
  if (spec.logFile) child.stdout.pipe(createWriteStream(spec.logFile))
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)))
  // with workers, their primary says when the last of them is consuming
  const consuming = workers > 1 ? '"msg":"every worker consuming"' : '"msg":"consuming from'
  const ready = new Promise<number>((resolveReady, reject) => {
    let tail = ''
    const onData = (d: Buffer) => {
      const seen = tail + d.toString()
      tail = seen.slice(-100) // a line split between two chunks
      if (seen.includes(consuming)) {
        child.stdout.off('data', onData)
        child.stdout.resume() // the default info log keeps flowing; read and drop it
        resolveReady(performance.now())
      }
    }
    child.stdout.on('data', onData)
    void exited.then((code) => reject(new Error(`${spec.client} service exited (${code}) before it was consuming:\n${stderr}`)))
  })
  ready.catch(() => undefined)
  return {
    table: `${spec.db}.session_facts`,
    pid: child.pid as number,
    createdTopics: created,
    startedAt,
    httpPort,
    ready,
    stop: async () => {
      const used = usage.stop()
      child.kill('SIGTERM')
      const code = await exited
      if (code !== 0) throw new Error(`${spec.client} service exited with ${code} at SIGTERM:\n${stderr}`)
      return used
    },
  }
}
