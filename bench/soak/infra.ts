import { execFile } from 'node:child_process'
import { mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { freePort } from '../../test/support/http.js'
import { OwnToxiproxy } from '../../test/support/toxiproxy.js'
import { WireLinks } from './wire-links.js'

// The soak's OWN ClickHouse server and Kafka broker: other ports, their own state directory. The
// soak restarts the broker and stops ClickHouse, so it never touches the shared servers
// (18123/19000, 19092/19093) that everyone's tests use. With wire faults, the service reaches both
// only through Toxiproxy (Kafka on a listener advertised at its proxy); the soak's own producer,
// sampler and end check keep the direct addresses.

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const run = promisify(execFile)
const SHARED_PORTS = new Set([18123, 19000, 19092, 19093])

export interface SoakPorts {
  readonly clickhouseHttp: number
  readonly clickhouseTcp: number
  readonly kafka: number
  readonly kafkaController: number
  /** Wire faults: the broker's PROXIED listener, and the proxies' ports in front of it and of ClickHouse's HTTP port. */
  readonly wire?: { readonly kafkaProxied: number; readonly kafkaProxy: number; readonly clickhouseProxy: number }
}

export const soakPorts = async (wire: boolean): Promise<SoakPorts> => ({
  clickhouseHttp: await freePort(),
  clickhouseTcp: await freePort(),
  kafka: await freePort(),
  kafkaController: await freePort(),
  ...(wire ? { wire: { kafkaProxied: await freePort(), kafkaProxy: await freePort(), clickhouseProxy: await freePort() } } : {}),
})

export class SoakInfra {
  private toxiproxy: OwnToxiproxy | undefined
  private links: WireLinks | undefined

  constructor(
    readonly stateDir: string,
    readonly ports: SoakPorts,
  ) {
    for (const p of [...Object.values(ports), ...Object.values(ports.wire ?? {})]) if (SHARED_PORTS.has(p)) throw new Error(`the soak must not use the shared servers' port ${p}`)
    mkdirSync(stateDir, { recursive: true })
  }

  get clickhouseUrl(): string {
    return `http://127.0.0.1:${this.ports.clickhouseHttp}`
  }

  get kafkaBrokers(): string {
    return `127.0.0.1:${this.ports.kafka}`
  }

  /** What `npm run migrate` and `npm run topics` need to find these servers. */
  get directEnv(): Record<string, string> {
    return { DEV_STATS_KAFKA_BROKERS: this.kafkaBrokers, DEV_STATS_CLICKHOUSE_URL: this.clickhouseUrl, DEV_STATS_STORE: 'clickhouse' }
  }

  /** What `npm start` needs: through the proxies when there are wire faults. */
  get serviceEnv(): Record<string, string> {
    const wire = this.ports.wire
    if (!wire) return this.directEnv
    return { ...this.directEnv, DEV_STATS_KAFKA_BROKERS: `127.0.0.1:${wire.kafkaProxy}`, DEV_STATS_CLICKHOUSE_URL: `http://127.0.0.1:${wire.clickhouseProxy}` }
  }

  /** Toxiproxy and the two proxies (before the broker starts: clients may not reach it otherwise). */
  async startProxies(log: (line: string) => void): Promise<void> {
    const wire = this.ports.wire
    if (!wire) return
    this.toxiproxy = await OwnToxiproxy.start()
    this.links = new WireLinks(this.toxiproxy, new Map([
      ['kafka', { upstream: wire.kafkaProxied, listen: wire.kafkaProxy }],
      ['clickhouse', { upstream: this.ports.clickhouseHttp, listen: wire.clickhouseProxy }],
    ]), log)
    await this.links.open()
  }

  get wire(): WireLinks {
    if (!this.links) throw new Error('no proxies: the soak runs without --network-faults')
    return this.links
  }

  get hasWire(): boolean {
    return this.links !== undefined
  }

  /** Stops Toxiproxy now (its memory past the soak's limit); the run fails. */
  stopProxies(): void {
    this.toxiproxy?.stop()
    this.toxiproxy = undefined
  }

  clickhouse(command: 'start' | 'stop'): Promise<void> {
    return this.script('clickhouse-server.sh', command, {
      CLICKHOUSE_HTTP_PORT: String(this.ports.clickhouseHttp),
      CLICKHOUSE_TCP_PORT: String(this.ports.clickhouseTcp),
      CLICKHOUSE_STATE_DIR: join(this.stateDir, 'clickhouse'),
    })
  }

  kafka(command: 'start' | 'stop'): Promise<void> {
    return this.script('kafka-broker.sh', command, {
      KAFKA_PORT: String(this.ports.kafka),
      KAFKA_CONTROLLER_PORT: String(this.ports.kafkaController),
      DEV_STATS_INFRA_DIR: this.stateDir,
      ...(this.ports.wire ? { KAFKA_PROXIED_PORT: String(this.ports.wire.kafkaProxied), KAFKA_PROXIED_ADVERTISED_PORT: String(this.ports.wire.kafkaProxy) } : {}),
    })
  }

  /** `npm run <script>` against these servers, as a user would run it. */
  async npm(script: 'migrate' | 'topics'): Promise<string> {
    const r = await run('npm', ['run', '--silent', script], { cwd: repo, env: { ...process.env, ...this.directEnv }, timeout: 180_000 })
    return `${r.stdout}${r.stderr}`
  }

  /** Stops both (each only if it runs from this state dir) and removes the state. */
  async dispose(keepState: boolean): Promise<void> {
    await Promise.allSettled([this.kafka('stop'), this.clickhouse('stop')])
    this.stopProxies()
    if (!keepState) rmSync(this.stateDir, { recursive: true, force: true })
  }

  private async script(name: string, command: string, env: Record<string, string>): Promise<void> {
    try {
      await run('bash', [join(repo, 'scripts', name), command], { cwd: repo, env: { ...process.env, ...env }, timeout: 180_000 })
    } catch (e) {
      const x = e as { stdout?: string; stderr?: string; message: string }
      throw new Error(`scripts/${name} ${command} failed: ${x.message}\n${x.stdout ?? ''}${x.stderr ?? ''}`)
    }
  }
}
