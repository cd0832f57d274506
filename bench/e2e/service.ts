import { spawn } from 'node:child_process'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { CLICKHOUSE_URL, createTopics, KAFKA_BROKERS } from './infra.js'
import { peakRss } from './rss.js'

// Contenders (b) and (c): the service as `npm start` runs it (src/main.ts under tsx, default
// settings), with only the session-ended consumer pointed at the bench topic and its own group,
// and a database of its own. Spawned as `node --import tsx` so that its pid is the service itself.

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)))

export interface ServiceSpec {
  readonly client: 'kafkajs' | 'confluent'
  readonly db: string
  readonly topic: string
  readonly group: string
  readonly extraEnv?: Readonly<Record<string, string>>
  readonly profileDir?: string
}

export interface ServiceRun {
  readonly table: string
  readonly startedAt: number
  /** Resolves when the service logged that it is consuming (every group joined). */
  readonly ready: Promise<number>
  /** SIGTERM, wait for the exit; returns the peak RSS in MB sampled up to then. */
  stop(): Promise<number>
}

export const startService = async (spec: ServiceSpec): Promise<ServiceRun> => {
  const session = serverSession({ url: CLICKHOUSE_URL, user: process.env.DEV_STATS_CLICKHOUSE_USER ?? 'default', password: process.env.DEV_STATS_CLICKHOUSE_PASSWORD ?? '', database: spec.db })
  await migrate(session)
  await session.close()
  await createTopics([{ name: `${spec.topic}.dlq`, partitions: 1 }, { name: `${spec.group}.retry`, partitions: 1 }])
  // One file per thread (tsx's loader runs in its own): the busiest one is the service.
  const profile = spec.profileDir ? ['--cpu-prof', '--cpu-prof-dir', `${spec.profileDir}/${spec.client}`] : []
  const startedAt = performance.now()
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', 'src/main.ts'], {
    cwd: repo,
    env: {
      ...process.env,
      DEV_STATS_BROKER: spec.client,
      DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
      DEV_STATS_STORE: 'clickhouse',
      DEV_STATS_CLICKHOUSE_URL: CLICKHOUSE_URL,
      DEV_STATS_CLICKHOUSE_DATABASE: spec.db,
      DEV_STATS_TOPIC_SESSION_ENDED: spec.topic,
      DEV_STATS_GROUP_SESSION_ENDED: spec.group,
      ...spec.extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const rss = peakRss(child.pid as number)
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)))
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => void (stderr = (stderr + d.toString()).slice(-4000)))
  const ready = new Promise<number>((resolveReady, reject) => {
    let seen = ''
    const onData = (d: Buffer) => {
      seen = (seen + d.toString()).slice(-2000)
      if (seen.includes('"msg":"consuming from')) {
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
    startedAt,
    ready,
    stop: async () => {
      const peak = rss.stop()
      child.kill('SIGTERM')
      const code = await exited
      if (code !== 0) throw new Error(`${spec.client} service exited with ${code} at SIGTERM:\n${stderr}`)
      return peak
    },
  }
}
