const FIRST_MS = 1000
const LONGEST_MS = 30_000
/** A worker that ran this long before it died was not dying quickly: its restart waits the first delay again. */
const QUICK_MS = 60_000

/** The wait before restarting a worker that died after `livedMs`: 1 s, doubling to 30 s while it keeps dying quickly. */
export const restartDelayMs = (previousMs: number | undefined, livedMs: number): number =>
  previousMs === undefined || livedMs >= QUICK_MS ? FIRST_MS : Math.min(LONGEST_MS, previousMs * 2)
