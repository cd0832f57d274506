import * as E from 'fp-ts/lib/Either.js'
import { propertyObjectDimRow, type PropertyObjectDimRow } from '../../domain/property-object-dim.js'
import type { EventHandler, Interpretation } from './event-handler.js'

export const PROPERTY_OBJECT_UPSERTED_TOPIC = 'pin.chessboard.property-object-upserted.v1'
export const PROPERTY_OBJECT_UPSERTED_GROUP = 'dev-stats-dim-property-object'

/** dim_property_object replica: every version is appended, readers take argMax by UpsertedAt. */
export const propertyObjectUpsertedHandler = (
  topic = PROPERTY_OBJECT_UPSERTED_TOPIC,
  groupId = PROPERTY_OBJECT_UPSERTED_GROUP,
): EventHandler => ({
  name: 'dim-property-object',
  topic,
  groupId,
  feedsDimensionLookup: true,
  interpret: ({ payload }) =>
    E.map((row: PropertyObjectDimRow): Interpretation => ({ kind: 'rows', rows: [{ table: 'dim_property_object', row }] }))(
      propertyObjectDimRow(payload),
    ),
})
