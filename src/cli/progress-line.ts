interface Out {
  readonly isTTY?: boolean
  write(s: string): unknown
}

/** One line redrawn in place on a terminal; a plain line per step elsewhere (CI, a pipe, a log). */
export const progressLine = (out: Out) => ({
  step(text: string): void {
    out.write(out.isTTY ? `\r\x1b[2K${text}` : `${text}\n`)
  },
  /** Ends the redrawn line, so that what follows starts on its own. */
  end(): void {
    if (out.isTTY) out.write('\r\x1b[2K')
  },
})
