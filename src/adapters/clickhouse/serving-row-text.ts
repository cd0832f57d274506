import type { Guid } from '../../domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import { sql } from './sql-fragment.js'

/** developer_view_facts' (or its joins') columns as serving view rows are read back: times in whole seconds. */
export const SERVING_VIEW_COLUMNS = sql`KeyDeveloperId, PropertyObjectViewId, FactId, DeveloperId, SessionId, IsClosed, DurationSeconds,
  toUInt32(EventTime) AS EventSecond, toUInt32(IngestionTime) AS IngestionSecond`

/** developer_session_facts' (or its joins') columns as serving session rows are read back. */
export const SERVING_SESSION_COLUMNS = sql`KeyDeveloperId, SessionId, FactId, DurationSeconds, ViewerKind,
  toUInt32(EventTime) AS EventSecond, toUInt32(IngestionTime) AS IngestionSecond`

export interface ServingViewText {
  KeyDeveloperId: Guid
  PropertyObjectViewId: Guid
  FactId: string
  DeveloperId: Guid
  SessionId: Guid
  IsClosed: number
  DurationSeconds: number
  EventSecond: number
  IngestionSecond: number
}

export interface ServingSessionText {
  KeyDeveloperId: Guid
  SessionId: Guid
  FactId: string
  DurationSeconds: number
  ViewerKind: 'Guest' | 'User'
  EventSecond: number
  IngestionSecond: number
}

export const servingViewRowOf = (r: ServingViewText): ServingViewRow => ({
  keyDeveloperId: r.KeyDeveloperId, propertyObjectViewId: r.PropertyObjectViewId, factId: r.FactId, developerId: r.DeveloperId, sessionId: r.SessionId,
  isClosed: Number(r.IsClosed) === 1, durationSeconds: Number(r.DurationSeconds), eventTime: Number(r.EventSecond) * 1000, ingestionTime: Number(r.IngestionSecond) * 1000,
})

export const servingSessionRowOf = (r: ServingSessionText): ServingSessionRow => ({
  keyDeveloperId: r.KeyDeveloperId, sessionId: r.SessionId, factId: r.FactId, durationSeconds: Number(r.DurationSeconds), viewerKind: r.ViewerKind,
  eventTime: Number(r.EventSecond) * 1000, ingestionTime: Number(r.IngestionSecond) * 1000,
})
