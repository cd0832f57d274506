import type { FunnelRow } from './funnel.js'
import type { Instant } from './instant.js'
import type { SessionFactRow } from './session-fact.js'
import type { PropertyObjectDimRow } from './property-object-dim.js'
import type { ViewFactRow } from './view-fact.js'
import { DIM_TABLE, type UpperDimRow, type UpperDimTable } from './dimension-upsert.js'

/** One member per upper dimension table, so that each table narrows on its own name. */
export type UpperDimFact = { readonly [T in UpperDimTable]: { readonly table: T; readonly row: UpperDimRow } }[UpperDimTable]

/** A row bound for one ClickHouse table; the store adds IngestionTime when it inserts. */
export type FactRow =
  | { readonly table: 'session_facts'; readonly row: SessionFactRow }
  | { readonly table: 'funnel_daily'; readonly row: FunnelRow }
  | { readonly table: 'dim_property_object'; readonly row: PropertyObjectDimRow }
  | { readonly table: 'property_object_view_facts'; readonly row: ViewFactRow }
  | UpperDimFact

export type FactTable = FactRow['table']

/** Every table a row may be bound for. */
export const FACT_TABLES: readonly FactTable[] = ['session_facts', 'property_object_view_facts', 'funnel_daily', 'dim_property_object', ...Object.values(DIM_TABLE)]

/** The event time a row's ingest lag is measured from. */
export const eventTimeOf = (r: FactRow): Instant => ('upsertedAt' in r.row ? r.row.upsertedAt : r.row.eventTime)
