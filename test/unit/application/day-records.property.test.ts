import { describe, it } from 'vitest'
import { InMemoryDayRecords } from '../../../src/adapters/memory/in-memory-day-records.js'
import { InMemoryFactStore } from '../../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryServingIndex } from '../../../src/adapters/memory/in-memory-serving-index.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { dayRecordsProperty } from '../../support/day-records-scenario.js'
import { memoryDataVersions } from '../../support/memory-data-versions.js'

describe('day records (in-memory store)', () => {
  it('answer as the serving rows do for every developer and whole-day period, whatever the order, races, reads between writes and crashes', async () => {
    await dayRecordsProperty(() => {
      const tables = new InMemoryTables()
      return {
        facts: new InMemoryFactStore(tables),
        serving: new InMemoryServingIndex(tables),
        records: new InMemoryDayRecords(tables),
        versions: memoryDataVersions(tables),
        oracle: new InMemoryReadModel(tables, 'serving'),
      }
    }, 500)
  })
})
