import * as E from 'fp-ts/lib/Either.js'
import { funnelEventCandidate } from '../../domain/funnel-event.js'
import { funnelRow, type FunnelStage } from '../../domain/funnel.js'
import type { FunnelCandidate } from '../../domain/lead-created.js'
import type { EventHandler, Interpretation } from './event-handler.js'

export interface FunnelStageSpec {
  readonly name: string
  readonly stage: FunnelStage
  readonly topic: string
  readonly groupId: string
  readonly keyField: string
}

/** The funnel stages whose events carry PropertyObjectId directly (spec §2). */
export const FUNNEL_STAGE_SPECS: readonly FunnelStageSpec[] = [
  { name: 'funnel-favorites', stage: 'Favorites', topic: 'pin.favorites.favorite-added.v1', groupId: 'dev-stats-funnel-favorites', keyField: 'FavoriteId' },
  { name: 'funnel-selections', stage: 'Selections', topic: 'pin.selections.selection-item-added.v1', groupId: 'dev-stats-funnel-selections', keyField: 'SelectionItemId' },
  { name: 'funnel-crm-booking', stage: 'Bookings', topic: 'pin.crm.booking-created.v1', groupId: 'dev-stats-funnel-crm-booking', keyField: 'BookingId' },
  { name: 'funnel-crm-booking-paid', stage: 'BookingsPaid', topic: 'pin.crm.booking-paid.v1', groupId: 'dev-stats-funnel-crm-booking-paid', keyField: 'BookingId' },
  { name: 'funnel-crm-deal', stage: 'Deals', topic: 'pin.crm.deal-created.v1', groupId: 'dev-stats-funnel-crm-deal', keyField: 'DealId' },
  { name: 'funnel-crm-deal-completed', stage: 'DealsCompleted', topic: 'pin.crm.deal-completed.v1', groupId: 'dev-stats-funnel-crm-deal-completed', keyField: 'DealId' },
]

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
