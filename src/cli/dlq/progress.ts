import type { ReplayProgress } from '../../application/dlq/replay-dead-letters.js'

interface Out {
  readonly isTTY?: boolean
  write(s: string): unknown
}

const WIDTH = 30

/** A redrawn bar on a terminal; elsewhere (CI, a pipe) a plain line at most every second and at the end. */
export const progressOn = (out: Out, now: () => number = Date.now): ReplayProgress => {
  let topic = ''
  let total = 0
  let last = { read: 0, matched: 0 }
  let printedAt = 0
  const line = () => `${topic}: ${last.read}/${total} dead letters read, ${last.matched} matching`
  const bar = () => {
    const done = total === 0 ? WIDTH : Math.round((last.read / total) * WIDTH)
    return `[${'#'.repeat(done)}${'-'.repeat(WIDTH - done)}] ${line()}`
  }
  return {
    started(t, n) {
      topic = t
      total = n
      last = { read: 0, matched: 0 }
      printedAt = now()
      if (out.isTTY) out.write(`\r${bar()}`)
      else out.write(`${topic}: ${n} dead letter(s) to read\n`)
    },
    advanced(read, matched) {
      last = { read, matched }
      if (out.isTTY) out.write(`\r${bar()}`)
      else if (now() - printedAt >= 1000) {
        printedAt = now()
        out.write(`${line()}\n`)
      }
    },
    finished() {
      out.write(out.isTTY ? `\r${bar()}\n` : `${line()}\n`)
    },
  }
}
