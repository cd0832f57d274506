import { readFileSync } from 'node:fs'

/** Peak resident set (VmHWM) of a process in MB, sampled until stop(); the last sample wins. */
export const peakRss = (pid: number) => {
  let peakMb = 0
  const sample = () => {
    try {
      const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
      if (kb) peakMb = Math.max(peakMb, Number(kb) / 1024)
    } catch {
      /* the process is gone: keep the last sample */
    }
  }
  const timer = setInterval(sample, 200)
  return {
    stop: (): number => {
      sample()
      clearInterval(timer)
      return peakMb
    },
  }
}
