import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Toxiproxy, type Proxy } from 'toxiproxy-node-client'
import { freePort } from './http.js'
import { runInfraScript } from './infra-script.js'

/** A toxic as Toxiproxy's API takes it: `downstream` is the server's answer, `upstream` the client's request. */
export interface ToxicSpec {
  readonly name: string
  readonly type: 'latency' | 'bandwidth' | 'timeout' | 'reset_peer' | 'limit_data' | 'slicer' | 'slow_close'
  readonly stream: 'upstream' | 'downstream'
  readonly attributes: Record<string, number>
  readonly toxicity?: number
}

/**
 * A Toxiproxy server of the caller's own (own API port, own state dir), started by
 * scripts/toxiproxy.sh; each proxy listens on a free port of 127.0.0.1 and forwards to `upstream`.
 */
export class OwnToxiproxy {
  readonly client: Toxiproxy
  private readonly stateDir = mkdtempSync(join(tmpdir(), 'dev-stats-toxiproxy-'))

  private constructor(readonly apiPort: number) {
    this.client = new Toxiproxy(`http://127.0.0.1:${apiPort}`)
  }

  static async start(): Promise<OwnToxiproxy> {
    const t = new OwnToxiproxy(await freePort())
    t.run('start')
    return t
  }

  /** A proxy named `name` from `listenPort` (a free one when not given) to 127.0.0.1:`upstreamPort`. */
  async proxy(name: string, upstreamPort: number, listenPort?: number): Promise<WireProxy> {
    const listen = listenPort ?? (await freePort())
    const p = await this.client.createProxy({ name, listen: `127.0.0.1:${listen}`, upstream: `127.0.0.1:${upstreamPort}` })
    return new WireProxy(p, listen)
  }

  /** The server's process id (from the script's pid file). */
  get pid(): number {
    return Number(readFileSync(join(this.stateDir, `toxiproxy-${this.apiPort}.pid`), 'utf8').trim())
  }

  /** Kills the server (SIGTERM, SIGKILL after 5 s: also one that is stopped or stuck) and starts a new one on the same API port, without proxies. */
  restart(): void {
    this.run('stop')
    this.run('start')
  }

  stop(): void {
    try {
      this.run('stop')
    } finally {
      rmSync(this.stateDir, { recursive: true, force: true })
    }
  }

  private run(command: 'start' | 'stop'): void {
    runInfraScript('toxiproxy.sh', command, { TOXIPROXY_PORT: String(this.apiPort), TOXIPROXY_STATE_DIR: this.stateDir }, 300_000)
  }
}

/** One proxy: its listening port, and toxics added and removed by name. */
export class WireProxy {
  private readonly toxics = new Set<string>()

  constructor(
    private readonly proxy: Proxy,
    readonly port: number,
  ) {}

  get name(): string {
    return this.proxy.name
  }

  async add(toxic: ToxicSpec): Promise<void> {
    await this.proxy.addToxic({ toxicity: 1, ...toxic })
    this.toxics.add(toxic.name)
  }

  has(name: string): boolean {
    return this.toxics.has(name)
  }

  async remove(name: string): Promise<void> {
    await (await this.proxy.getToxic(name)).remove()
    this.toxics.delete(name)
  }

  /** Removes every toxic added through this object (a proxy left clean for the next case). */
  async clear(): Promise<void> {
    for (const name of [...this.toxics]) await this.remove(name)
  }
}
