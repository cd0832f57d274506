import type { DimensionPath } from './dimension-path.js'
import type { Guid } from './guid.js'
import { utcDate, type Instant } from './instant.js'

export const FUNNEL_STAGES = [
  'Views',
  'Favorites',
  'Selections',
  'Leads',
  'Bookings',
  'BookingsPaid',
  'Deals',
  'DealsCompleted',
] as const
export type FunnelStage = (typeof FUNNEL_STAGES)[number]

/**
 * A partial funnel_daily row: its own stage holds uniqState(businessKey), every other stage an
 * empty state. The store turns it into states; duplicates of a business key count once.
 */
export interface FunnelRow extends DimensionPath {
  readonly eventDate: string
  readonly eventTime: Instant
  readonly stage: FunnelStage
  readonly businessKey: Guid
  readonly sourceEventId: string
}

export const funnelRow = (
  stage: FunnelStage,
  path: DimensionPath,
  businessKey: Guid,
  eventTime: Instant,
  sourceEventId: string,
): FunnelRow => ({
  developerId: path.developerId,
  projectId: path.projectId,
  buildingId: path.buildingId,
  layoutGroupId: path.layoutGroupId,
  layoutId: path.layoutId,
  propertyObjectId: path.propertyObjectId,
  eventDate: utcDate(eventTime),
  eventTime,
  stage,
  businessKey,
  sourceEventId,
})
