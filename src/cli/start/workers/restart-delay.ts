import { backoffDelay, type BackoffPolicy } from '../../../application/engine/backoff.js'

const RESTART: BackoffPolicy = { initialMs: 1000, maxMs: 30_000 }
/** A worker that ran this long before it died was not dying quickly: its restart is a first one again. */
const QUICK_MS = 60_000

/** Which restart in a row this is for a worker that died after `livedMs`: the next while it keeps dying quickly, else the first. */
export const restartAttempt = (previous: number | undefined, livedMs: number): number =>
  previous === undefined || livedMs >= QUICK_MS ? 1 : previous + 1

/** The wait before a restart: 1 s, doubling to 30 s. */
export const restartDelayMs = (attempt: number): number => backoffDelay(RESTART, attempt)
