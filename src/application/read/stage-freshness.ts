import type { FunnelStage } from '../../domain/funnel.js'

export interface StageSource {
  /** False when the stage's consumer does not run (e.g. Leads while the funnel flag is off). */
  readonly enabled: boolean
  /** Current ingest lag of the stage's consumer, when known. */
  readonly lagSeconds?: number
}

export type StageFreshness = (stage: FunnelStage) => StageSource
