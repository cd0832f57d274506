import type { EngineConfig } from './engine-config.js'

/**
 * Whether an open batch of `rows` records, `ageMs` old, is due: past the flush interval, or past
 * the slow-batch bound while filling too slowly to reach `maxRows` within as long again (at the
 * rate it has filled so far): waiting would not make it a full batch soon, only an older one.
 * A record then waits about twice the bound at most, and a batch holds at least half of
 * `maxRows` or what arrived within the bound.
 */
export const batchDue = (ageMs: number, rows: number, maxRows: number, config: Pick<EngineConfig, 'flushIntervalMs' | 'slowBatchFlushMs'>): boolean => {
  if (ageMs >= config.flushIntervalMs) return true
  const slow = config.slowBatchFlushMs
  return slow !== undefined && slow > 0 && ageMs >= slow && rows * (ageMs + slow) < maxRows * ageMs
}
