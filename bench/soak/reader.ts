import { SignJWT } from 'jose'
import type { Instance } from './instance.js'
import type { ReadTruth } from './read-truth.js'

export type ReadRoute = 'session-metrics' | 'conversion-funnel'
const ROUTES: readonly ReadRoute[] = ['session-metrics', 'conversion-funnel']
const DAY_MS = 86_400_000

/** One call: when it started (ms since the traffic started), how long it took, what came back. */
export interface ReadSample {
  readonly atMs: number
  readonly ms: number
  readonly route: ReadRoute
  /** The instance's slot (i0, x1, …). */
  readonly instance: string
  /** An HTTP status, or `gone` (the instance was being stopped or killed: no answer is owed). */
  readonly status: number | 'gone'
}

export interface ReaderSettings {
  readonly secret: string
  /** Calls per second over all instances, routes and developers. */
  readonly perSecond: number
  readonly developers: number
  /** A call unanswered this long is a hang (a finding). */
  readonly hangMs: number
}

/**
 * The dashboards' side of the soak (issue 36.4): both read API routes for several developers at a
 * steady rate, spread over the running instances. Every answer must be a 200 whose counts stay
 * within the ledger's truth, or a 503 with Retry-After; anything else — a 500, a 503 without
 * Retry-After, a hang, a refused connection to a running instance — is a finding.
 */
export class SoakReader {
  readonly samples: ReadSample[] = []
  readonly findings: string[] = []
  private readonly tokens = new Map<string, string>()
  private readonly inFlight = new Set<Promise<void>>()
  private timer: NodeJS.Timeout | undefined
  private n = 0

  constructor(
    private readonly t0: number,
    private readonly instances: () => readonly Instance[],
    private readonly truth: ReadTruth,
    private readonly settings: ReaderSettings,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      const call = this.call().catch((e: unknown) => void this.findings.push(`reader: ${String(e)}`))
      this.inFlight.add(call)
      void call.finally(() => this.inFlight.delete(call))
    }, 1000 / this.settings.perSecond)
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    await Promise.allSettled([...this.inFlight])
  }

  private async call(): Promise<void> {
    const ready = this.instances().filter((i) => i.ready && i.alive && !i.expected)
    const developers = this.truth.developers.slice(0, this.settings.developers)
    if (ready.length === 0 || developers.length === 0) return
    const k = this.n++
    // every instance gets both routes (k % 2 for the route would give two instances one route each)
    const instance = ready[k % ready.length] as Instance
    const route = ROUTES[Math.floor(k / ready.length) % ROUTES.length] as ReadRoute
    const developer = developers[Math.floor(k / (ready.length * ROUTES.length)) % developers.length] as string
    const now = Date.now()
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10)
    const url = `http://127.0.0.1:${instance.httpPort}/v1/${route}?from=${day(now - 3 * DAY_MS)}&to=${day(now + DAY_MS)}`
    const started = Date.now()
    const sample = (status: number | 'gone'): void => void this.samples.push({ atMs: started - this.t0, ms: Date.now() - started, route, instance: instance.slot, status })
    let response: Response
    try {
      response = await fetch(url, { headers: { authorization: `Bearer ${await this.token(developer)}` }, signal: AbortSignal.timeout(this.settings.hangMs) })
    } catch (e) {
      if (instance.expected || !instance.alive) return sample('gone')
      sample(0)
      const timedOut = (e as Error).name === 'TimeoutError'
      this.findings.push(`${route} on ${instance.label} at ${Math.round((started - this.t0) / 1000)} s: ${timedOut ? `no answer within ${this.settings.hangMs / 1000} s` : String((e as Error).cause ?? e)}`)
      return
    }
    const text = await response.text()
    sample(response.status)
    const at = `${route} on ${instance.label} at ${Math.round((started - this.t0) / 1000)} s`
    if (response.status === 200) {
      for (const x of this.truth.excess(developer, route, JSON.parse(text))) this.findings.push(`${at}: ${x}`)
    } else if (response.status === 503) {
      if (!/^\d+$/.test(response.headers.get('retry-after') ?? '')) this.findings.push(`${at}: 503 without Retry-After: ${text.slice(0, 200)}`)
    } else {
      this.findings.push(`${at}: ${response.status} ${text.slice(0, 200)}`)
    }
  }

  private async token(developer: string): Promise<string> {
    let t = this.tokens.get(developer)
    if (!t) {
      t = await new SignJWT({ developer_id: developer }).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('12h').sign(new TextEncoder().encode(this.settings.secret))
      this.tokens.set(developer, t)
    }
    return t
  }
}
