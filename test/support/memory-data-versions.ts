import type { InMemoryTables } from '../../src/adapters/memory/in-memory-tables.js'
import type { DataVersionReader, ReadSource } from '../../src/application/ports/data-version.port.js'
import type { Guid } from '../../src/domain/guid.js'

/**
 * The read cache's versions over the memory store's write counts, as ClickHouseDataVersions reads
 * them from developer_day_writes: a developer's version of a source is the sum of its counts.
 */
export const memoryDataVersions = (tables: InMemoryTables): DataVersionReader => ({
  versions: async () => new Map<ReadSource, string>(),
  developerVersions: async (developerIds) => {
    const sums = new Map<string, number>()
    for (const [key, rows] of tables.dayWrites) {
      const [source, developer] = key.split('|')
      sums.set(`${source}|${developer}`, (sums.get(`${source}|${developer}`) ?? 0) + rows)
    }
    return new Map(developerIds.map((d: Guid) => [d, new Map((['views', 'sessions', 'funnel'] as const).map((s) => [s, String(sums.get(`${s}|${d}`) ?? 0)]))]))
  },
})
