import type { DimensionPath } from '../../domain/dimension-path.js'
import type { Guid } from '../../domain/guid.js'

export interface DimensionReader {
  /** Latest known hierarchy (argMax by UpsertedAt) of each id that has one; absent ids are late. */
  latestPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, DimensionPath>>
}
