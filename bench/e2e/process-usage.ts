import { readFileSync } from 'node:fs'

export interface ProcessUsage {
  /** Peak resident set (VmHWM) in MB. */
  readonly peakMb: number
  /** User + system CPU time in seconds: what the process cost, whatever else ran on the machine. */
  readonly cpuSeconds: number
}

const TICKS_PER_SECOND = 100 // USER_HZ on Linux

/** Samples a process's /proc until stop(); the last sample wins (the process may be gone by then). */
export const processUsage = (pid: number) => {
  let usage: ProcessUsage = { peakMb: 0, cpuSeconds: 0 }
  const sample = () => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      // utime and stime are stat's 14th and 15th fields; the 3rd (state) is the first after "(comm) "
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      const ticks = Number(fields[11]) + Number(fields[12])
      usage = { peakMb: Math.max(usage.peakMb, Number(kb ?? 0) / 1024), cpuSeconds: ticks / TICKS_PER_SECOND }
    } catch {
      /* the process is gone: keep the last sample */
    }
  }
  const timer = setInterval(sample, 200)
  return {
    stop: (): ProcessUsage => {
      sample()
      clearInterval(timer)
      return usage
    },
  }
}
