import * as E from 'fp-ts/lib/Either.js'
import { funnelEventCandidate } from '../../domain/funnel-event.js'
import { funnelRow, type FunnelStage } from '../../domain/funnel.js'
import type { FunnelCandidate } from '../../domain/lead-created.js'
import type { EventHandler, Interpretation } from './event-handler.js'

/** A funnel stage whose events carry PropertyObjectId directly (spec §2); the registry lists them. */
export interface FunnelStageSpec {
  readonly name: string
  readonly stage: FunnelStage
  readonly topic: string
  readonly groupId: string
  readonly keyField: string
}

/** decode → resolve the property object → enrich → a partial funnel_daily row of one stage. */
export const funnelStageHandler = (spec: FunnelStageSpec): EventHandler => {
  const decide = funnelEventCandidate(spec.keyField)
  return {
    name: spec.name,
    topic: spec.topic,
    groupId: spec.groupId,
    funnelStage: spec.stage,
    interpret: ({ context, payload }, now) =>
      E.map(({ propertyObjectId, businessKey, occurredAt }: FunnelCandidate): Interpretation => ({
        kind: 'enrich',
        propertyObjectId,
        complete: (path) => [{ table: 'funnel_daily', row: funnelRow(spec.stage, path, businessKey, occurredAt, context.messageId) }],
      }))(decide(payload, now)),
  }
}
