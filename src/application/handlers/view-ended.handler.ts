import * as E from 'fp-ts/lib/Either.js'
import { closedViewFact, decideViewEnded, type ViewEndedDecision } from '../../domain/view-fact.js'
import { NO_WARNINGS, type EventHandler, type Interpretation } from './event-handler.js'
import { DEFAULT_HANDLER_SETTINGS, unknownViewSourceWarning, type HandlerSettings } from './handler-settings.js'

export const VIEW_ENDED_TOPIC = 'pin.user-activity.property-object-view-ended.v1'
export const VIEW_ENDED_GROUP = 'dev-stats-property-object-view-ended'

/** Closed view facts, enriched with the property object's hierarchy. */
export const viewEndedHandler = (
  topic = VIEW_ENDED_TOPIC,
  groupId = VIEW_ENDED_GROUP,
  settings: HandlerSettings = DEFAULT_HANDLER_SETTINGS,
): EventHandler => ({
  name: 'property-object-view-ended',
  topic,
  groupId,
  interpret: ({ context, payload }, now) =>
    E.map((d: ViewEndedDecision): Interpretation => ({
      kind: 'enrich',
      propertyObjectId: d.payload.PropertyObjectId,
      complete: (path) => [{ table: 'property_object_view_facts', row: closedViewFact(context, d, path) }],
      warnings: d.viewSource.known ? NO_WARNINGS : [unknownViewSourceWarning(d.viewSource.raw)],
    }))(decideViewEnded(payload, now, settings.viewSources)),
})
