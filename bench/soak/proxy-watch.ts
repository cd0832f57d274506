import { readFileSync } from 'node:fs'

/** A process's resident set in MB (/proc/PID/status VmRSS); undefined once it is gone. */
export const rssMbOf = (pid: number): number | undefined => {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
    return kb === undefined ? undefined : Number(kb) / 1024
  } catch {
    return undefined
  }
}

/**
 * Toxiproxy's RSS every second (the pid asked each time: the harness may restart it). Past
 * `limitMb` it calls `over` once (which stops the proxy before it starves the machine).
 */
export class ProxyWatch {
  peakMb = 0
  overMb: number | undefined
  private timer: NodeJS.Timeout | undefined

  constructor(
    private readonly pid: () => number | undefined,
    readonly limitMb: number,
    private readonly over: (mb: number) => void,
    private readonly everyMs = 1000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.sample(), this.everyMs)
  }

  sample(): void {
    const pid = this.pid()
    const mb = pid === undefined ? undefined : rssMbOf(pid)
    if (mb === undefined) return
    this.peakMb = Math.max(this.peakMb, mb)
    if (mb > this.limitMb && this.overMb === undefined) {
      this.overMb = mb
      this.over(mb)
    }
  }

  stop(): void {
    clearInterval(this.timer)
  }
}
