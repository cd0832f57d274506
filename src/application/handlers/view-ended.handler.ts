import * as E from 'fp-ts/lib/Either.js'
import { closedViewFact, decideViewEnded, type ViewEndedDecision } from '../../domain/view-fact.js'
import type { EventHandler, Interpretation } from './event-handler.js'

export const VIEW_ENDED_TOPIC = 'pin.user-activity.property-object-view-ended.v1'
export const VIEW_ENDED_GROUP = 'dev-stats-property-object-view-ended'

/** Closed view facts, enriched with the property object's hierarchy. */
export const viewEndedHandler = (topic = VIEW_ENDED_TOPIC, groupId = VIEW_ENDED_GROUP): EventHandler => ({
  name: 'property-object-view-ended',
  topic,
  groupId,
  interpret: ({ context, payload }, now) =>
    E.map(({ payload: p, unknownViewSource }: ViewEndedDecision): Interpretation => ({
      kind: 'enrich',
      propertyObjectId: p.PropertyObjectId,
      complete: (path) => [{ table: 'property_object_view_facts', row: closedViewFact(context, p, path) }],
      warnings: unknownViewSource ? [`unknown ViewSource ${JSON.stringify(p.ViewSource)} stored as Unknown`] : [],
    }))(decideViewEnded(payload, now)),
})
