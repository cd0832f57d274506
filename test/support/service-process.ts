import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { topicsToProvision } from '../../src/application/consumers/consumer-topics.js'
import { isolatedDeployment } from './deployment.js'
import { freePort } from './http.js'
import { createTopics, type KafkaAdapter } from './kafka.js'
import { OwnClickHouse } from './own-clickhouse.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

/** `start` of the CLI as a child process, its output kept. */
export interface ServiceProcess {
  readonly child: ChildProcess
  readonly output: string[]
  readonly url: string
}

export const startService = (env: Record<string, string>, port: number): ServiceProcess => {
  const output: string[] = []
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'start'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  child.stdout?.on('data', (b: Buffer) => output.push(b.toString()))
  child.stderr?.on('data', (b: Buffer) => output.push(b.toString()))
  return { child, output, url: `http://127.0.0.1:${port}` }
}

/** A GET's status and body; status 0 when nothing answers. */
export const get = async (url: string): Promise<{ status: number; body: string }> => {
  try {
    const r = await fetch(url)
    return { status: r.status, body: await r.text() }
  } catch (e) {
    return { status: 0, body: String(e) }
  }
}

/** The value of one sample line of the exposition text, or undefined. */
export const sample = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

/** The sum of every sample line starting with `prefix`. */
export const sumOf = (text: string, prefix: string): number =>
  text.split('\n').filter((l) => l.startsWith(prefix)).reduce((a, l) => a + Number(l.split(' ').at(-1)), 0)

/** A service of a test's own: its ClickHouse server (migrated), its topics, its HTTP port. */
export interface OwnService {
  readonly clickhouse: OwnClickHouse
  readonly service: ServiceProcess
  /** The session-ended consumer's source topic. */
  readonly sessionTopic: string
}

/**
 * Starts a ClickHouse server of the test's own (so the test may stop it), migrates the
 * deployment's database there, creates the deployment's topics (one partition each) on the shared
 * broker, and runs `start` with `settings` (DEV_STATS_* variables) over the defaults below.
 */
export const startOwnService = async (adapter: KafkaAdapter, name: string, settings: Record<string, string>): Promise<OwnService> => {
  const clickhouse = new OwnClickHouse(await freePort(), await freePort())
  clickhouse.start()
  try {
    const port = await freePort()
    const deployment = isolatedDeployment(adapter, name, {
      DEV_STATS_CLICKHOUSE_URL: clickhouse.url,
      DEV_STATS_HTTP_PORT: String(port),
      DEV_STATS_HTTP_HOST: '127.0.0.1',
      DEV_STATS_FLUSH_INTERVAL_MS: '200',
      DEV_STATS_LOG_LEVEL: 'warn',
      ...settings,
    })
    const session = serverSession({ url: clickhouse.url, user: 'default', password: '', database: deployment.database })
    await migrate(session)
    await session.close()
    await createTopics(topicsToProvision(deployment.consumers).map((t) => ({ name: t.name, partitions: 1 })))
    return { clickhouse, service: startService(deployment.env, port), sessionTopic: deployment.topicsOf('SESSION_ENDED').source }
  } catch (e) {
    clickhouse.stop()
    throw e
  }
}
