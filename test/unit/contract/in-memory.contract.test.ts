import { InMemoryDimensionReader } from '../../../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryReadModel, type InMemoryViewSessionSource } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryServingIndex } from '../../../src/adapters/memory/in-memory-serving-index.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import { InMemoryDayRecords } from '../../../src/adapters/memory/in-memory-day-records.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { dimensionReaderContract, versionedDimensionReaderContract } from '../../../src/testing/contracts/dimension-reader.contract.js'
import { factStoreContract } from '../../../src/testing/contracts/fact-store.contract.js'
import { dimensionNamesContract } from '../../../src/testing/contracts/dimension-names.contract.js'
import { viewMergeContract } from '../../../src/testing/contracts/view-merge.contract.js'
import { stageProgressContract } from '../../../src/testing/contracts/stage-progress.contract.js'
import { InMemoryStageProgressReader } from '../../../src/adapters/memory/in-memory-stage-progress.js'

// The reference semantics: the ClickHouse adapters must give these answers on the same inputs.
const inMemory = (source: InMemoryViewSessionSource | 'records') => async () => {
  const tables = new InMemoryTables()
  const store = new ServingFactStore(new InMemoryFactStore(tables), new InMemoryServingIndex(tables))
  const readModel = source === 'records' ? new DayRecordsReadModel(new InMemoryReadModel(tables), new InMemoryDayRecords(tables)) : new InMemoryReadModel(tables, source)
  return { store, readModel, forceMerge: async () => {} }
}
// the serving rows (what reads use), the day records (whole days) and the raw facts (the definition) give the same answers
for (const source of ['serving', 'records', 'facts'] as const) {
  factStoreContract(`in-memory, ${source}`, inMemory(source))
  viewMergeContract(`in-memory, ${source}`, inMemory(source))
}
dimensionNamesContract('in-memory', inMemory('serving'))

const inMemoryDimensions = async () => {
  const tables = new InMemoryTables()
  return { store: new InMemoryFactStore(tables), dimensions: new InMemoryDimensionReader(tables) }
}
dimensionReaderContract('in-memory', inMemoryDimensions)
versionedDimensionReaderContract('in-memory', inMemoryDimensions)

stageProgressContract('in-memory', async () => {
  const tables = new InMemoryTables()
  return { store: new InMemoryFactStore(tables), progress: new InMemoryStageProgressReader(tables) }
})
