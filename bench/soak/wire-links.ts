import type { OwnToxiproxy, ToxicSpec, WireProxy } from '../../test/support/toxiproxy.js'
import type { Link } from './schedule.js'

/**
 * How long a Toxiproxy API call may take before the server counts as stuck: its API can hang
 * removing a toxic under load (Toxiproxy issues #412 and #558) while `/version` still answers.
 */
export const API_BOUND_MS = 5000

/** Something the harness did to itself (not a fault of the schedule), for the report. */
export interface HarnessEvent {
  readonly atMs: number
  readonly what: string
}

export interface Route {
  readonly upstream: number
  readonly listen: number
}

const within = <T>(work: Promise<T>, ms: number): Promise<{ value: T } | 'late'> => {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), ms)))
  return Promise.race([work.then((value) => ({ value })), late]).finally(() => clearTimeout(timer))
}

/**
 * The soak's proxies, every API call bounded: a call that does not answer within `boundMs`
 * restarts the Toxiproxy server and recreates the proxies on the same ports without toxics
 * (a harness event); the call itself is then given up (a toxic not added, or gone with the old server).
 */
export class WireLinks {
  readonly events: HarnessEvent[] = []
  private readonly proxies = new Map<Link, WireProxy>()
  private restarting: Promise<void> | undefined

  constructor(
    private readonly server: OwnToxiproxy,
    private readonly routes: ReadonlyMap<Link, Route>,
    private readonly log: (line: string) => void,
    private readonly boundMs = API_BOUND_MS,
    private readonly t0 = Date.now(),
  ) {}

  /** Creates the proxies; a server that does not answer here fails the start. */
  async open(): Promise<void> {
    for (const [link, r] of this.routes) {
      const made = await within(this.server.proxy(link, r.upstream, r.listen), this.boundMs)
      if (made === 'late') throw new Error(`Toxiproxy did not create the ${link} proxy within ${this.boundMs} ms`)
      this.proxies.set(link, made.value)
    }
  }

  get pid(): number {
    return this.server.pid
  }

  async add(link: Link, toxic: ToxicSpec): Promise<void> {
    await this.call(`adding ${toxic.name} on ${link}`, () => this.proxy(link).add(toxic))
  }

  /** Removes a toxic; nothing to do when a restart took it away. */
  async remove(link: Link, name: string): Promise<void> {
    await this.restarting
    if (!this.proxy(link).has(name)) return
    await this.call(`removing ${name} on ${link}`, () => this.proxy(link).remove(name))
  }

  private proxy(link: Link): WireProxy {
    const p = this.proxies.get(link)
    if (!p) throw new Error(`no ${link} proxy`)
    return p
  }

  private async call(what: string, request: () => Promise<void>): Promise<void> {
    await this.restarting
    const work = request()
    work.catch(() => undefined) // a call given up fails later, when its server is killed
    if ((await within(work, this.boundMs)) === 'late') await this.restart(`its API did not answer ${what} within ${this.boundMs / 1000} s`)
  }

  /** Restarts the server and recreates the proxies without toxics (a harness event), `why` said in the log and the report. */
  restart(why: string): Promise<void> {
    this.restarting ??= (async () => {
      this.log(`harness: Toxiproxy restarting (${why}); the proxies are recreated on the same ports, no toxics`)
      this.events.push({ atMs: Date.now() - this.t0, what: `Toxiproxy restarted: ${why}` })
      this.server.restart()
      this.proxies.clear()
      await this.open()
      this.log('harness: Toxiproxy restarted, proxies recreated')
    })().finally(() => (this.restarting = undefined))
    return this.restarting
  }
}
