import * as E from 'fp-ts/lib/Either.js'
import { decideActionTracked, openViewFact, viewsFunnelRow, type ActionDecision } from '../../domain/action-tracked.js'
import { NO_WARNINGS, type EventHandler, type Interpretation } from './event-handler.js'
import { DEFAULT_HANDLER_SETTINGS, unknownViewSourceWarning, type HandlerSettings } from './handler-settings.js'

export const ACTION_TRACKED_TOPIC = 'pin.user-activity.action-tracked.v1'
export const ACTION_TRACKED_GROUP = 'dev-stats-action-tracked'

/** ViewPropertyObject actions: an open view fact plus the funnel's Views stage; other actions are skipped. */
export const actionTrackedHandler = (
  topic = ACTION_TRACKED_TOPIC,
  groupId = ACTION_TRACKED_GROUP,
  settings: HandlerSettings = DEFAULT_HANDLER_SETTINGS,
): EventHandler => ({
  name: 'action-tracked',
  topic,
  groupId,
  funnelStage: 'Views',
  interpret: ({ context, payload }, now) =>
    E.map((d: ActionDecision): Interpretation => {
      if (d.kind === 'skip') return { kind: 'skip', reason: d.reason }
      const p = d.payload
      return {
        kind: 'enrich',
        propertyObjectId: p.PropertyObjectId,
        complete: (path) => [
          { table: 'property_object_view_facts', row: openViewFact(context, p, path, d.viewSource) },
          { table: 'funnel_daily', row: viewsFunnelRow(context, p, path) },
        ],
        warnings: d.viewSource.known ? NO_WARNINGS : [unknownViewSourceWarning(d.viewSource.raw)],
      }
    })(decideActionTracked(payload, now, settings.viewSources)),
})
