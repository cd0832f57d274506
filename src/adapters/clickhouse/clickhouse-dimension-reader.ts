import type { VersionedDimensionReader, VersionedPath } from '../../application/ports/dimension-reader.port.js'
import type { DimensionPath } from '../../domain/dimension-path.js'
import type { Guid } from '../../domain/guid.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { sql, uuidSet } from './sql-fragment.js'

/** Ids per lookup: 5,000 UUIDs are 185 KB of SQL text, inside 18.16's 256 KiB max_query_size. */
const CHUNK = 5000

/**
 * Latest path per property object: argMax over Version (UpsertedAt in µs), never FINAL. The whole
 * path is one tuple so every level comes from the same (latest) row. The ids travel as one text
 * (uuidSet): with a toUUID('…') call per id the lookups cost ClickHouse 15 % more CPU on the
 * all-topics backlog (docs/performance.md).
 */
export class ClickHouseDimensionReader implements VersionedDimensionReader {
  constructor(private readonly session: ClickHouseSession) {}

  async latestPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, DimensionPath>> {
    const paths = new Map<Guid, DimensionPath>()
    for (const [id, { path }] of await this.latestVersionedPaths(propertyObjectIds)) paths.set(id, path)
    return paths
  }

  async latestVersionedPaths(propertyObjectIds: readonly Guid[]): Promise<ReadonlyMap<Guid, VersionedPath>> {
    const ids = [...new Set(propertyObjectIds)]
    const paths = new Map<Guid, VersionedPath>()
    // on a cluster every replica: a version stored through another one is seen at once, and a record waiting for it is not parked
    const tables = await this.session.readTables()
    for (let i = 0; i < ids.length; i += CHUNK) {
      const chunk = ids.slice(i, i + CHUNK)
      const rows = await this.session.select<{ Id: Guid; p: [Guid, Guid, Guid, Guid, Guid]; v: string }>(sql`
        SELECT Id, argMax(tuple(DeveloperId, ProjectId, BuildingId, LayoutGroupId, LayoutId), Version) AS p, max(Version) AS v
        FROM ${tables.table('dim_property_object')}
        WHERE Id IN ${uuidSet(chunk)}
        GROUP BY Id`)
      for (const { Id, p, v } of rows) {
        const [developerId, projectId, buildingId, layoutGroupId, layoutId] = p
        paths.set(Id, { path: { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId: Id }, version: Number(v) })
      }
    }
    return paths
  }
}
