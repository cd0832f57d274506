import { readdirSync, readFileSync } from 'node:fs'

const PAGE = 4096

/** The resident set of the process in process group `group` whose command line contains `marker`, in bytes; undefined when there is none. */
export const rssInGroup = (group: number, marker: string): number | undefined => {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
      // fields after the command's closing parenthesis: state ppid pgrp …; field 24 (rss) in pages
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(fields[2]) !== group) continue
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(marker)) continue
      return Number(fields[21]) * PAGE
    } catch {
      // gone meanwhile
    }
  }
  return undefined
}

/** Samples `read` every `everyMs` until stop(); the largest value seen and how many samples had one. */
export const sampler = (read: () => number | undefined, everyMs = 1000) => {
  let peak = 0
  let samples = 0
  const timer = setInterval(() => {
    const v = read()
    if (v === undefined) return
    samples++
    peak = Math.max(peak, v)
  }, everyMs)
  return {
    get peak() { return peak },
    get samples() { return samples },
    stop: () => clearInterval(timer),
  }
}
