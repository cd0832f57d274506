import { ACTION_TRACKED_GROUP, ACTION_TRACKED_TOPIC, actionTrackedHandler } from '../handlers/action-tracked.handler.js'
import { DIM_TABLE, UPPER_LEVELS, type UpperLevel } from '../../domain/dimension-upsert.js'
import { dimensionGroupOf, dimensionTopicOf, dimensionUpsertedHandler } from '../handlers/dimension-upserted.handler.js'
import type { FactTable } from '../../domain/fact-row.js'
import type { EventHandler } from '../handlers/event-handler.js'
import type { HandlerSettings } from '../handlers/handler-settings.js'
import { funnelStageHandler } from '../handlers/funnel-stage.handler.js'
import { LEAD_CREATED_GROUP, LEAD_CREATED_TOPIC, leadCreatedHandler } from '../handlers/lead-created.handler.js'
import {
  PROPERTY_OBJECT_UPSERTED_GROUP, PROPERTY_OBJECT_UPSERTED_TOPIC, propertyObjectUpsertedHandler,
} from '../handlers/property-object-upserted.handler.js'
import { SESSION_ENDED_GROUP, SESSION_ENDED_TOPIC, sessionEndedHandler } from '../handlers/session-ended.handler.js'
import { VIEW_ENDED_GROUP, VIEW_ENDED_TOPIC, viewEndedHandler } from '../handlers/view-ended.handler.js'

/** The switches a consumer's `enabledWhen` may look at. */
export interface ConsumerFlags {
  /** dev-stats.funnel.enabled */
  readonly funnelEnabled: boolean
}

/**
 * One consumer, declared once. Its dead-letter topic is `<topic>.dlq` and its retry topic
 * `<group>.retry` (spec §2); the container's wiring, the DEV_STATS_TOPIC_/GROUP_ overrides, topic
 * provisioning and the topic table (docs/operations.md) all derive from these entries.
 */
export interface ConsumerSpec {
  readonly name: string
  /** Suffix of the DEV_STATS_TOPIC_<key> / DEV_STATS_GROUP_<key> overrides. */
  readonly key: string
  readonly topic: string
  readonly groupId: string
  /** Partitions of the source topic when provisioned here (retry: 3, dead letters: 1). */
  readonly partitions: number
  /** What a record becomes, for the topic table (docs/operations.md). */
  readonly effect: string
  /** The tables its rows go to (its metrics' series exist from start-up). */
  readonly tables: readonly FactTable[]
  /** Runs only when this flag is on; absent = always. */
  readonly enabledWhen?: keyof ConsumerFlags
  readonly handler: (topic: string, groupId: string, settings?: HandlerSettings) => EventHandler
}

const funnelStage = (
  key: string, name: string, stage: Parameters<typeof funnelStageHandler>[0]['stage'], topic: string, keyField: string,
): ConsumerSpec => ({
  name: `funnel-${name}`,
  key,
  topic,
  groupId: `dev-stats-funnel-${name}`,
  partitions: 3,
  effect: `funnel stage ${stage} in \`funnel_daily\``,
  tables: ['funnel_daily'],
  handler: (t, groupId) => funnelStageHandler({ name: `funnel-${name}`, stage, keyField, topic: t, groupId }),
})

/** An upper dimension: developer, project, building, layout-group, layout (spec §2). */
const dimension = (level: UpperLevel): ConsumerSpec => ({
  name: `dim-${level}`,
  key: `${level.toUpperCase().replace(/-/g, '_')}_UPSERTED`,
  topic: dimensionTopicOf(level),
  groupId: dimensionGroupOf(level),
  partitions: 3,
  effect: `a version in \`${DIM_TABLE[level]}\``,
  tables: [DIM_TABLE[level]],
  handler: dimensionUpsertedHandler(level),
})

/** Every consumer of the library. Adding one is adding an entry here. */
export const CONSUMERS: readonly ConsumerSpec[] = [
  ...UPPER_LEVELS.map(dimension),
  {
    name: 'dim-property-object', key: 'PROPERTY_OBJECT_UPSERTED', topic: PROPERTY_OBJECT_UPSERTED_TOPIC,
    groupId: PROPERTY_OBJECT_UPSERTED_GROUP, partitions: 3, effect: 'a version in `dim_property_object`', tables: ['dim_property_object'],
    handler: propertyObjectUpsertedHandler,
  },
  {
    name: 'session-ended', key: 'SESSION_ENDED', topic: SESSION_ENDED_TOPIC, groupId: SESSION_ENDED_GROUP,
    partitions: 6, effect: 'a row in `session_facts`', tables: ['session_facts'], handler: sessionEndedHandler,
  },
  {
    name: 'property-object-view-ended', key: 'VIEW_ENDED', topic: VIEW_ENDED_TOPIC, groupId: VIEW_ENDED_GROUP,
    partitions: 3, effect: 'a closed row in `property_object_view_facts`', tables: ['property_object_view_facts'], handler: viewEndedHandler,
  },
  {
    name: 'action-tracked', key: 'ACTION_TRACKED', topic: ACTION_TRACKED_TOPIC, groupId: ACTION_TRACKED_GROUP, partitions: 3,
    effect: 'ActionType = ViewPropertyObject: an open row in `property_object_view_facts` + funnel stage Views',
    tables: ['property_object_view_facts', 'funnel_daily'],
    handler: actionTrackedHandler,
  },
  funnelStage('FAVORITES', 'favorites', 'Favorites', 'pin.favorites.favorite-added.v1', 'FavoriteId'),
  funnelStage('SELECTIONS', 'selections', 'Selections', 'pin.selections.selection-item-added.v1', 'SelectionItemId'),
  funnelStage('CRM_BOOKING', 'crm-booking', 'Bookings', 'pin.crm.booking-created.v1', 'BookingId'),
  funnelStage('CRM_BOOKING_PAID', 'crm-booking-paid', 'BookingsPaid', 'pin.crm.booking-paid.v1', 'BookingId'),
  funnelStage('CRM_DEAL', 'crm-deal', 'Deals', 'pin.crm.deal-created.v1', 'DealId'),
  funnelStage('CRM_DEAL_COMPLETED', 'crm-deal-completed', 'DealsCompleted', 'pin.crm.deal-completed.v1', 'DealId'),
  {
    name: 'funnel-lead-created', key: 'LEAD_CREATED', topic: LEAD_CREATED_TOPIC, groupId: LEAD_CREATED_GROUP, partitions: 3,
    effect: 'funnel stage Leads', tables: ['funnel_daily'], enabledWhen: 'funnelEnabled', handler: leadCreatedHandler,
  },
]
