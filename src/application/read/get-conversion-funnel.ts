import * as E from 'fp-ts/lib/Either.js'
import { FUNNEL_STAGES, type FunnelStage } from '../../domain/funnel.js'
import type { DateRange, HierarchyFilter, ReadModel } from '../ports/read-model.port.js'
import { accessDenied, type AccessDenied, type DeveloperActor } from './actor.js'
import type { StageFreshness } from './stage-freshness.js'

export const FRESHNESS_SLA_SECONDS = 300

export type StageStatus = 'live' | 'preliminary' | 'no-source'

export interface FunnelStageReport {
  readonly stage: FunnelStage
  readonly count: number
  readonly status: StageStatus
  /** count / count of the nearest earlier stage that has a source; undefined for the first or without a source. */
  readonly conversionFromPrevious: number | undefined
}

/** Stages counted independently; a lagging stage is shown as preliminary, a stage without a source is skipped. */
export const getConversionFunnel =
  (readModel: ReadModel, freshness: StageFreshness) =>
  async (
    actor: DeveloperActor | null | undefined,
    range: DateRange,
    filter: HierarchyFilter = {},
  ): Promise<E.Either<AccessDenied, readonly FunnelStageReport[]>> => {
    if (!actor?.developerId) return E.left(accessDenied)
    const counts = await readModel.funnelCounts(actor.developerId, range, filter)
    const sources = await Promise.all(FUNNEL_STAGES.map(async (stage) => freshness(stage)))
    let previous: number | undefined
    return E.right(
      FUNNEL_STAGES.map((stage, i) => {
        const source = sources[i] ?? { enabled: false }
        if (!source.enabled) return { stage, count: 0, status: 'no-source', conversionFromPrevious: undefined }
        const count = counts[stage]
        const conversion = previous === undefined || previous === 0 ? undefined : count / previous
        previous = count
        const behind = (source.lagSeconds ?? 0) > FRESHNESS_SLA_SECONDS
        return { stage, count, status: behind ? 'preliminary' : 'live', conversionFromPrevious: conversion }
      }),
    )
  }
