import type { EngineConfig } from './engine-config.js'

/**
 * Whether an open batch of `rows` records, opened at `openedAt` (ms on the process's clock), is due
 * at `now`: past the flush interval, or, with a slow-batch bound, past a boundary of it (a multiple
 * of the bound on that clock) while filling too slowly to reach `maxRows` within another bound (at
 * the rate it has filled so far): waiting would not make it a full batch soon, only an older one.
 * The boundaries are the same for every consumer of the process, so slow consumers insert at the
 * same moments and their inserts into one table go as one (adapters' insert groups). A slow
 * consumer's record waits about one bound; a batch holds at least what arrived within it.
 */
export const batchDue = (openedAt: number, now: number, rows: number, maxRows: number, config: Pick<EngineConfig, 'flushIntervalMs' | 'slowBatchFlushMs'>): boolean => {
  const age = now - openedAt
  if (age >= config.flushIntervalMs) return true
  const slow = config.slowBatchFlushMs
  if (slow === undefined || slow <= 0 || Math.floor(now / slow) === Math.floor(openedAt / slow)) return false
  return rows * (age + slow) < maxRows * age
}

/** How often a consumer checks its batch: a divisor of the slow-batch bound where it can be, so that ticks fall on its boundaries. */
export const tickPeriodMs = (config: Pick<EngineConfig, 'flushIntervalMs' | 'slowBatchFlushMs'>): number =>
  Math.max(10, Math.min(250, config.flushIntervalMs / 4, (config.slowBatchFlushMs || Number.POSITIVE_INFINITY) / 4))

/** The delay to the next multiple of `period` on the process's clock, just past it: every consumer with the same period ticks together. */
export const delayToNextTick = (now: number, period: number): number => period - (now % period) + 1
