import type { FunnelStage } from '../../domain/funnel.js'

/** The store's record of each funnel stage's ingest lag (domain/stage-progress.ts). */
export interface StageProgressReader {
  /** Per stage with any progress: the lag of its newest minute, in seconds. */
  newestLags(): Promise<ReadonlyMap<FunnelStage, number>>
}
