import type { FactRow } from './fact-row.js'
import type { FunnelStage } from './funnel.js'
import type { Instant } from './instant.js'

/**
 * How far behind a funnel stage's ingest was, written with each batch so that any process that
 * reads the store sees the same freshness (spec §8): per stage and minute of IngestionTime, the
 * greatest lag (IngestionTime − EventTime) of the stage's rows flushed in that minute.
 */
export interface StageProgress {
  readonly stage: FunnelStage
  /** Start of the minute of the batch's IngestionTime, epoch ms. */
  readonly minute: Instant
  readonly lagSeconds: number
}

const MINUTE = 60_000

/** The progress rows of one batch: one per funnel stage present in it. */
export const stageProgressOf = (rows: readonly FactRow[], ingestionTime: Instant): StageProgress[] => {
  const lags = new Map<FunnelStage, number>()
  for (const r of rows) {
    if (r.table !== 'funnel_daily') continue
    const lag = Math.max(0, Math.floor((ingestionTime - r.row.eventTime) / 1000))
    lags.set(r.row.stage, Math.max(lag, lags.get(r.row.stage) ?? 0))
  }
  const minute = Math.floor(ingestionTime / MINUTE) * MINUTE
  return [...lags].map(([stage, lagSeconds]) => ({ stage, minute, lagSeconds }))
}

/**
 * Per stage, the lag of its newest minute: the greatest lag flushed in that minute by any
 * instance, so one lagging instance of several marks the stage preliminary.
 */
export const newestLags = (progress: readonly StageProgress[]): Map<FunnelStage, number> => {
  const newest = new Map<FunnelStage, StageProgress>()
  for (const p of progress) {
    const current = newest.get(p.stage)
    if (!current || p.minute > current.minute || (p.minute === current.minute && p.lagSeconds > current.lagSeconds)) newest.set(p.stage, p)
  }
  return new Map([...newest].map(([stage, p]) => [stage, p.lagSeconds]))
}
