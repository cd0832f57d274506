import type { SoakInfra } from './infra.js'
import { startUntilConsuming, type Instance } from './instance.js'
import type { Fault } from './schedule.js'
import type { FaultSpan } from './verdicts.js'

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
/**
 * The longest a fault may still take once the traffic stopped: an instance restart waits up to
 * 10 minutes for a consuming instance, a broker start 5 attempts of 3 minutes; every Toxiproxy call is bounded (wire-links.ts).
 */
const SETTLE_BOUND_MS = 20 * 60_000

export interface Fleet {
  /** The base instance in `slot` (i0, i1, …), replaced on restart. */
  current(slot: number): Instance
  replace(slot: number, next: Instance): void
  /** A new incarnation of base `slot`, or an extra instance (`extra` = its number). */
  make(slot: number | { extra: number }, attempt: number): Instance
  slots: number
}

/** One SIGTERM and how the instance took it; a stop while the broker is down cannot leave the groups cleanly. */
export interface TermOutcome {
  readonly label: string
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly seconds: number
  readonly brokerDown: boolean
  readonly wireFault: boolean
  readonly deadline: boolean
}

/**
 * Runs the schedule: each fault at its time, overlapping as scheduled. Faults on one instance
 * slot wait for each other (a kill does not hit an instance still starting), and so do faults
 * on one server: two broker restarts a second apart once started two brokers on the same ports,
 * and the one left hung in its shutdown held the controller port, so no later start succeeded.
 * A span lasts from the fault until its repair is done: broker answering, ClickHouse started,
 * the restarted or removed instance consuming or gone.
 */
export class FaultRunner {
  readonly spans: FaultSpan[] = []
  readonly errors: string[] = []
  readonly terms: TermOutcome[] = []
  private brokerDown = false
  private wireFaults = 0
  private readonly locks = new Map<string, Promise<void>>()
  private readonly running = new Set<Promise<void>>()
  private readonly timers: NodeJS.Timeout[] = []
  private extras = 0

  constructor(
    private readonly t0: number,
    private readonly infra: Pick<SoakInfra, 'kafka' | 'clickhouse' | 'wire'>,
    private readonly fleet: Fleet,
    private readonly log: (line: string) => void,
  ) {}

  schedule(faults: readonly Fault[]): void {
    for (const f of faults) {
      this.timers.push(setTimeout(() => {
        const p = this.run(f).catch((e: unknown) => void this.errors.push(`${f.kind} at ${f.atMs} ms: ${String(e)}`))
        this.running.add(p)
        void p.finally(() => this.running.delete(p))
      }, Math.max(0, this.t0 + f.atMs - Date.now())))
    }
  }

  get active(): number {
    return this.running.size
  }

  /**
   * Waits for the faults in progress, at most `boundMs` (then throws; `check` each second may
   * throw sooner); cancels those not started yet.
   */
  async settle(boundMs = SETTLE_BOUND_MS, check: () => void = () => undefined): Promise<void> {
    for (const t of this.timers) clearTimeout(t)
    const deadline = Date.now() + boundMs
    while (this.running.size > 0) {
      check()
      if (Date.now() >= deadline) throw new Error(`${this.running.size} faults still running ${Math.round(boundMs / 1000)} s after the traffic stopped`)
      let timer: NodeJS.Timeout | undefined
      await Promise.race([Promise.allSettled([...this.running]), new Promise((r) => (timer = setTimeout(r, Math.min(1000, deadline - Date.now()))))])
      clearTimeout(timer)
    }
  }

  private async run(f: Fault): Promise<void> {
    const start = Date.now()
    const span = (label: string) => {
      this.spans.push({ label, startMs: start - this.t0, endMs: Date.now() - this.t0 })
      this.log(`fault ${label}: ${((Date.now() - start) / 1000).toFixed(1)} s`)
    }
    switch (f.kind) {
      case 'broker-restart':
        await this.exclusive('broker', async () => {
          this.log('fault broker-restart: stopping the broker')
          this.brokerDown = true
          try {
            await this.infra.kafka('stop')
            await this.restartBroker()
          } finally {
            this.brokerDown = false
          }
        })
        return span('broker-restart')
      case 'clickhouse-stop':
        await this.exclusive('clickhouse', async () => {
          this.log(`fault clickhouse-stop: ${f.holdMs / 1000} s`)
          await this.infra.clickhouse('stop')
          await sleep(f.holdMs)
          await this.infra.clickhouse('start')
        })
        return span(`clickhouse-stop ${f.holdMs / 1000} s`)
      case 'instance-kill':
      case 'instance-term': {
        const slot = f.instance % this.fleet.slots
        await this.exclusive(`slot ${slot}`, async () => {
          const victim = this.fleet.current(slot)
          this.log(`fault ${f.kind}: ${victim.label}`)
          if (f.kind === 'instance-kill') await victim.kill()
          else await this.term(victim)
          this.fleet.replace(slot, await startUntilConsuming((a) => this.fleet.make(slot, a), 600_000))
        })
        return span(`${f.kind} i${slot}`)
      }
      case 'instance-add': {
        const extra = ++this.extras
        this.log(`fault instance-add: x${extra} for ${f.holdMs / 1000} s`)
        const added = await startUntilConsuming((a) => this.fleet.make({ extra }, a), 600_000)
        await sleep(f.holdMs)
        await this.term(added)
        return span(`instance-add x${extra}`)
      }
      default: {
        const toxic = f.toxic
        if (!toxic) throw new Error(`${f.kind} without a toxic`)
        const wire = this.infra.wire
        const name = `${f.kind}-${f.atMs}`
        const what = `${toxic.type} ${Object.entries(toxic.attributes).map(([k, v]) => `${k}=${v}`).join(' ')}`
        this.log(`fault ${f.kind} ${toxic.link}: ${what} for ${f.holdMs / 1000} s`)
        // On the server's answers (a request reaches it, its reply is slowed, cut or reset); a
        // timeout both ways: the link carries nothing and closes nothing (one way only, the server's
        // own keep-alive timeout would close an idle connection after a few seconds).
        const streams = toxic.type === 'timeout' ? (['downstream', 'upstream'] as const) : (['downstream'] as const)
        this.wireFaults++
        try {
          for (const stream of streams) await wire.add(toxic.link, { name: `${name}-${stream}`, type: toxic.type, stream, attributes: toxic.attributes })
          await sleep(f.holdMs)
          for (const stream of streams) await wire.remove(toxic.link, `${name}-${stream}`)
        } finally {
          this.wireFaults--
        }
        return span(`${f.kind} ${toxic.link} ${f.holdMs / 1000} s`)
      }
    }
  }

  /** A loaded machine sometimes starts the broker slower than the script waits: wait and ask again. */
  private async restartBroker(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.infra.kafka('start')
      } catch (e) {
        if (attempt >= 5) throw e
        this.log(`broker start attempt ${attempt} failed; trying again in 10 s`)
        await sleep(10_000)
      }
    }
  }

  private async term(victim: Instance): Promise<void> {
    const [brokerDown, wireFault] = [this.brokerDown, this.wireFaults > 0]
    const t = Date.now()
    const exit = await victim.term()
    const outcome = {
      label: victim.label, ...exit, seconds: (Date.now() - t) / 1000,
      brokerDown: brokerDown || this.brokerDown, wireFault: wireFault || this.wireFaults > 0, deadline: victim.stopDeadline,
    }
    this.terms.push(outcome)
    if (exit.code !== 0) this.log(`${victim.label} exited ${exit.code ?? exit.signal} on SIGTERM after ${outcome.seconds.toFixed(1)} s${outcome.brokerDown ? ' (the broker was down)' : ''}`)
  }

  /** Runs `work` after the faults on the same thing (an instance slot, a server) that came before it. */
  private async exclusive(thing: string, work: () => Promise<void>): Promise<void> {
    const before = this.locks.get(thing) ?? Promise.resolve()
    const mine = before.then(work, work)
    this.locks.set(thing, mine.catch(() => undefined))
    await mine
  }
}
