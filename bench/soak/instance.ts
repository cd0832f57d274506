import { spawn, type ChildProcess } from 'node:child_process'
import { createWriteStream, readdirSync, readFileSync, type WriteStream } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * One `npm start` process as the README says to run it (its own process group, so a SIGKILL takes npm
 * and the service together), its log kept in a file. `consuming` resolves when the service logged
 * that every consumer joined; `exited` when npm and the service are gone.
 */
export class Instance {
  readonly consuming: Promise<boolean>
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  readonly startedAt = Date.now()
  private readonly child: ChildProcess
  private readonly log: WriteStream
  private servicePid: number | undefined
  private gone = false
  /** Set before the soak kills or stops it: any other exit is a crash. */
  expected = false
  /** Logged that every consumer joined (its HTTP server is up by then). */
  ready = false
  /** Logged that its stop ran past DEV_STATS_STOP_TIMEOUT_SECONDS. */
  stopDeadline = false

  constructor(
    /** e.g. `i0 kafkajs #2` (slot, client, incarnation). */
    readonly label: string,
    readonly slot: string,
    readonly httpPort: number,
    env: Record<string, string>,
    logFile: string,
  ) {
    this.log = createWriteStream(logFile, { flags: 'a' })
    this.child = spawn('npm', ['start', '--silent'], {
      cwd: repo,
      env: { ...process.env, ...env, DEV_STATS_HTTP_PORT: String(httpPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    let tail = ''
    this.consuming = new Promise((ok) => {
      this.child.stdout?.on('data', (d: Buffer) => {
        this.log.write(d)
        const seen = tail + d.toString()
        tail = seen.slice(-200)
        if (seen.includes('"msg":"stop deadline passed')) this.stopDeadline = true
        if (seen.includes('"msg":"consuming from')) {
          this.ready = true
          ok(true)
        }
      })
      this.child.once('close', () => ok(false))
    })
    this.child.stderr?.on('data', (d: Buffer) => this.log.write(d))
    this.exited = new Promise((r) =>
      this.child.once('close', (code, signal) => {
        this.gone = true
        this.log.end()
        r({ code, signal })
      }),
    )
  }

  get alive(): boolean {
    return !this.gone
  }

  /** SIGKILL to the whole group: no shutdown, no commit, no leaving the groups. */
  async kill(): Promise<void> {
    this.expected = true
    this.signal('SIGKILL')
    await this.exited
  }

  /** SIGTERM to the group (as systemd or a container runtime sends it), SIGKILL after `timeoutMs`. */
  async term(timeoutMs = 60_000): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    this.expected = true
    this.signal('SIGTERM')
    const timer = setTimeout(() => this.signal('SIGKILL'), timeoutMs)
    const r = await this.exited
    clearTimeout(timer)
    return r
  }

  async metrics(): Promise<string | undefined> {
    try {
      const r = await fetch(`http://127.0.0.1:${this.httpPort}/metrics`, { signal: AbortSignal.timeout(3000) })
      return r.ok ? await r.text() : undefined
    } catch {
      return undefined
    }
  }

  /** Resident set of the service process (not npm's) in MB, or undefined while it is not up. */
  rssMb(): number | undefined {
    if (this.gone) return undefined
    this.servicePid ??= serviceOf(this.child.pid as number)
    if (this.servicePid === undefined) return undefined
    try {
      const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${this.servicePid}/status`, 'utf8'))?.[1]
      return kb === undefined ? undefined : Number(kb) / 1024
    } catch {
      // That process is gone (it was npm's prestart step, say): look for the service again next time.
      this.servicePid = undefined
      return undefined
    }
  }

  private signal(s: NodeJS.Signals): void {
    if (this.gone) return
    try {
      process.kill(-(this.child.pid as number), s)
    } catch {
      // already gone
    }
  }
}

/** The service: the node process of npm's group other than npm itself with the largest resident set. */
const serviceOf = (npmPid: number): number | undefined => {
  let best: { pid: number; rss: number } | undefined
  for (const name of readdirSync('/proc')) {
    const pid = Number(name)
    if (!Number.isInteger(pid) || pid === npmPid) continue
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) !== npmPid) continue // pgrp
      const rss = Number(fields[21])
      if (!best || rss > best.rss) best = { pid, rss }
    } catch {
      // gone meanwhile
    }
  }
  return best?.pid
}

/** Starts an instance and waits until it consumes; a start that fails (a server down) is retried, as a supervisor would. */
export const startUntilConsuming = async (make: (attempt: number) => Instance, giveUpMs: number): Promise<Instance> => {
  const deadline = Date.now() + giveUpMs
  for (let attempt = 1; ; attempt++) {
    const i = make(attempt)
    const ok = await Promise.race([i.consuming, sleep(Math.max(0, deadline - Date.now())).then(() => false)])
    if (ok) return i
    await i.term(10_000)
    if (Date.now() > deadline) throw new Error(`${i.label} did not start consuming within ${giveUpMs} ms`)
    await sleep(3000)
  }
}

export const logFileOf = (dir: string, label: string) => join(dir, `${label.replace(/[^A-Za-z0-9#.-]+/g, '-')}.log`)
