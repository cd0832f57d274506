import type { DimensionPath } from '../../domain/dimension-path.js'
import type { Guid } from '../../domain/guid.js'

export interface DimensionReader {
  /** Latest known hierarchy (argMax by UpsertedAt) of each id that has one; absent ids are late. */
  latestPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, DimensionPath>>
}

/** A latest path with the version it was stored under (UpsertedAt in epoch µs, dim_property_object's Version). */
export interface VersionedPath {
  readonly path: DimensionPath
  readonly version: number
}

/** A store's dimension reader that also says which version each answer is: lets a process cache the answers. */
export interface VersionedDimensionReader extends DimensionReader {
  latestVersionedPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, VersionedPath>>
}
