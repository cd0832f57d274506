import * as E from 'fp-ts/lib/Either.js'
import { funnelRow } from '../../domain/funnel.js'
import { leadCreatedDecision, type LeadDecision } from '../../domain/lead-created.js'
import type { EventHandler, Interpretation } from './event-handler.js'

export const LEAD_CREATED_TOPIC = 'pin.crm.lead-created.v1'
export const LEAD_CREATED_GROUP = 'dev-stats-funnel-crm-lead'

/** Leads stage of the funnel (seed 003); started only when `dev-stats.funnel.enabled` is on. */
export const leadCreatedHandler = (topic = LEAD_CREATED_TOPIC, groupId = LEAD_CREATED_GROUP): EventHandler => ({
  name: 'funnel-lead-created',
  topic,
  groupId,
  funnelStage: 'Leads',
  interpret: ({ context, payload }, now) =>
    E.map((decision: LeadDecision): Interpretation => {
      if (decision.kind === 'skip') return { kind: 'skip', reason: decision.reason }
      const { propertyObjectId, businessKey, occurredAt } = decision.candidate
      return {
        kind: 'enrich',
        propertyObjectId,
        complete: (path) => [
          { table: 'funnel_daily', row: funnelRow('Leads', path, businessKey, occurredAt, context.messageId) },
        ],
      }
    })(leadCreatedDecision(payload, now)),
})
