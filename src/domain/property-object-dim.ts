import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from './decode-with.js'
import type { DimensionPath } from './dimension-path.js'
import { GuidCodec, isEmptyGuid } from './guid.js'
import { checkColumns, dateTime, uint64 } from './column-limits.js'
import { InstantCodec, type Instant } from './instant.js'
import { poison, type Poison } from './poison.js'

/** property-object-upserted carries the whole path; anything beyond it and Name is ignored. */
export const PropertyObjectUpsertedPayload = t.intersection([
  t.type({
    Id: GuidCodec,
    DeveloperId: GuidCodec,
    ProjectId: GuidCodec,
    BuildingId: GuidCodec,
    LayoutGroupId: GuidCodec,
    LayoutId: GuidCodec,
    UpsertedAt: InstantCodec,
  }),
  t.partial({ Name: t.union([t.string, t.null]) }),
])

/** One version of dim_property_object; readers take the row with the greatest version per id. */
export interface PropertyObjectDimRow extends DimensionPath {
  readonly name: string | null
  readonly upsertedAt: Instant
  /** UpsertedAt in epoch microseconds: the ReplacingMergeTree version (DateTime has whole seconds). */
  readonly version: number
}

export const propertyObjectDimRow = (payload: unknown): E.Either<Poison, PropertyObjectDimRow> => {
  const decoded = decodeWith(PropertyObjectUpsertedPayload)(payload)
  if (E.isLeft(decoded)) return decoded
  const p = decoded.right
  const ids = [p.Id, p.DeveloperId, p.ProjectId, p.BuildingId, p.LayoutGroupId, p.LayoutId]
  if (ids.some(isEmptyGuid)) return E.left(poison('empty-id', 'an id of the path is Guid.Empty'))
  const version = p.UpsertedAt * 1000
  const checked = checkColumns([dateTime('UpsertedAt', p.UpsertedAt), uint64('Version', version)])
  return E.as(checked, {
    propertyObjectId: p.Id,
    developerId: p.DeveloperId,
    projectId: p.ProjectId,
    buildingId: p.BuildingId,
    layoutGroupId: p.LayoutGroupId,
    layoutId: p.LayoutId,
    name: p.Name ?? null,
    upsertedAt: p.UpsertedAt,
    version,
  })
}
