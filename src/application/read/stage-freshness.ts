import type { FunnelStage } from '../../domain/funnel.js'
import type { StageProgressReader } from '../ports/stage-progress.port.js'

export interface StageSource {
  /** False when the stage's consumer does not run (e.g. Leads while the funnel flag is off). */
  readonly enabled: boolean
  /** Current ingest lag of the stage's consumer, when known. */
  readonly lagSeconds?: number
}

export type StageFreshness = (stage: FunnelStage) => StageSource | Promise<StageSource>

/**
 * Freshness from the store, so a reader with no consumers and every ingesting instance give the
 * same marks. `enabled` comes from configuration (the stage has a consumer somewhere); one store
 * read serves the stages of a funnel request (reused for `reuseMs`).
 */
export const storeFreshness = (progress: StageProgressReader, enabled: (stage: FunnelStage) => boolean, reuseMs = 1000): StageFreshness => {
  let last: { at: number; lags: Promise<ReadonlyMap<FunnelStage, number>> } | undefined
  const lags = () => {
    if (!last || Date.now() - last.at > reuseMs) {
      const read = progress.newestLags()
      last = { at: Date.now(), lags: read }
      read.catch(() => (last = undefined))
    }
    return last.lags
  }
  return async (stage) => (enabled(stage) ? { enabled: true, lagSeconds: (await lags()).get(stage) } : { enabled: false })
}
