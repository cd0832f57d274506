import { readdirSync, readFileSync } from 'node:fs'

/** A process's resident set in MB (/proc/PID/status VmRSS); undefined once it is gone. */
export const rssMbOf = (pid: number): number | undefined => {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

/** How many files (its listeners and connections, both sides) a process holds open; undefined once it is gone. */
export const openFilesOf = (pid: number): number | undefined => {
  try {
    return readdirSync(`/proc/${pid}/fd`).length
  } catch {
    return undefined
  }
}

/**
 * Toxiproxy's RSS (and open files: connections clients left behind show there) every second (the
 * pid asked each time: the harness may restart it). Past `stuckMb` it calls `stuck` (the harness
 * restarts the proxy), again only once the RSS was back under it; past `limitMb` it calls `over`
 * once (which stops the proxy before it starves the machine).
 */
export class ProxyWatch {
  peakMb = 0
  lastMb = 0
  peakFiles = 0
  lastFiles = 0
  overMb: number | undefined
  private timer: NodeJS.Timeout | undefined
  private stuckCalled = false

  constructor(
    private readonly pid: () => number | undefined,
    readonly limitMb: number,
    private readonly over: (mb: number) => void,
    private readonly everyMs = 1000,
    private readonly stuck?: { readonly mb: number; readonly call: (mb: number, files: number) => void },
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs)
  }

  sample(): void {
    const pid = this.pid()
    const mb = pid === undefined ? undefined : rssMbOf(pid)
    if (mb === undefined) return
    this.lastMb = mb
    this.peakMb = Math.max(this.peakMb, mb)
    this.lastFiles = (pid === undefined ? undefined : openFilesOf(pid)) ?? this.lastFiles
    this.peakFiles = Math.max(this.peakFiles, this.lastFiles)
    if (this.stuck && mb > this.stuck.mb && !this.stuckCalled) {
      this.stuckCalled = true
      this.stuck.call(mb, this.lastFiles)
    } else if (this.stuck && mb <= this.stuck.mb) this.stuckCalled = false
    if (mb > this.limitMb && this.overMb === undefined) {
      this.overMb = mb
      this.over(mb)
    }
  }

  stop(): void {
    clearInterval(this.timer)
  }
}
