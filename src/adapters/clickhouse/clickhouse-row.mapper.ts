import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import { dateTimeText } from './datetime-text.js'

const nullableDateTime = (i: Instant | null): string | null => (i === null ? null : dateTimeText(i))

export interface TableRow {
  /** Insert target: funnel rows go to the Null-engine funnel_events, whose MV folds them into funnel_daily. */
  readonly table: string
  readonly values: Record<string, unknown>
}

/** funnel_daily's rows are inserted into this Null-engine table; its materialized views fold them into states. */
export const FUNNEL_INSERT_TABLE = 'funnel_events'

/** One domain row as the JSONEachRow object of its insert table, IngestionTime (its text) stamped. */
export const toTableRow = (fact: FactRow, IngestionTime: string): TableRow => {
  switch (fact.table) {
    case 'session_facts': {
      const r = fact.row
      return {
        table: 'session_facts',
        values: {
          FactId: r.factId, SourceEventId: r.sourceEventId, SessionId: r.sessionId, AnonymousId: r.anonymousId, UserId: r.userId,
          ViewerKind: r.viewerKind, TenantId: r.tenantId, BrandId: r.brandId, DeveloperId: r.developerId,
          EventTime: dateTimeText(r.eventTime), StartedAt: dateTimeText(r.startedAt), LastActivityAt: dateTimeText(r.lastActivityAt),
          DurationSeconds: r.durationSeconds, IngestionTime,
        },
      }
    }
    case 'property_object_view_facts': {
      const r = fact.row
      return {
        table: 'property_object_view_facts',
        values: {
          FactId: r.factId, SourceEventId: r.sourceEventId, PropertyObjectViewId: r.propertyObjectViewId, PropertyObjectId: r.propertyObjectId,
          DeveloperId: r.developerId, ProjectId: r.projectId, BuildingId: r.buildingId, LayoutGroupId: r.layoutGroupId, LayoutId: r.layoutId,
          SessionId: r.sessionId, AnonymousId: r.anonymousId, UserId: r.userId, ViewerKind: r.viewerKind, ViewSource: r.viewSource,
          ViewSourceRaw: r.viewSourceRaw,
          IsClosed: r.isClosed ? 1 : 0, ViewedAt: dateTimeText(r.viewedAt), LastActivityAt: nullableDateTime(r.lastActivityAt),
          DurationSeconds: r.durationSeconds, EventTime: dateTimeText(r.eventTime), IngestionTime,
        },
      }
    }
    case 'funnel_daily': {
      const r = fact.row
      return {
        table: FUNNEL_INSERT_TABLE,
        values: {
          DeveloperId: r.developerId, ProjectId: r.projectId, BuildingId: r.buildingId, LayoutGroupId: r.layoutGroupId, LayoutId: r.layoutId,
          PropertyObjectId: r.propertyObjectId, EventDate: r.eventDate, Stage: r.stage, BusinessKey: r.businessKey,
        },
      }
    }
    case 'dim_developer':
    case 'dim_project':
    case 'dim_building':
    case 'dim_layout_group':
    case 'dim_layout': {
      const r = fact.row
      return {
        table: fact.table,
        values: { Id: r.id, ...r.parents, Name: r.name, UpsertedAt: dateTimeText(r.upsertedAt), Version: r.version, IngestionTime },
      }
    }
    case 'dim_property_object': {
      const r = fact.row
      return {
        table: 'dim_property_object',
        values: {
          Id: r.propertyObjectId, DeveloperId: r.developerId, ProjectId: r.projectId, BuildingId: r.buildingId, LayoutGroupId: r.layoutGroupId,
          LayoutId: r.layoutId, Name: r.name, UpsertedAt: dateTimeText(r.upsertedAt), Version: r.version, IngestionTime,
        },
      }
    }
  }
}
