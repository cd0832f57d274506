import type { VersionedDimensionReader, VersionedPath } from '../../application/ports/dimension-reader.port.js'
import type { DimensionPath } from '../../domain/dimension-path.js'
import type { Guid } from '../../domain/guid.js'
import { latestBy, type InMemoryTables } from './in-memory-tables.js'

export class InMemoryDimensionReader implements VersionedDimensionReader {
  constructor(private readonly tables: InMemoryTables) {}

  async latestPaths(ids: readonly Guid[]): Promise<ReadonlyMap<Guid, DimensionPath>> {
    const paths = new Map<Guid, DimensionPath>()
    for (const [id, { path }] of await this.latestVersionedPaths(ids)) paths.set(id, path)
    return paths
  }

  async latestVersionedPaths(ids: readonly Guid[]): Promise<ReadonlyMap<Guid, VersionedPath>> {
    const wanted = new Set<string>(ids)
    const rows = this.tables.of('dim_property_object').filter((r) => wanted.has(r.fact.row.propertyObjectId))
    const latest = latestBy(rows, (r) => r.fact.row.propertyObjectId, (r) => r.fact.row.version)
    const paths = new Map<Guid, VersionedPath>()
    for (const { fact } of latest.values()) {
      const { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId, version } = fact.row
      paths.set(propertyObjectId, { path: { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId }, version })
    }
    return paths
  }
}
