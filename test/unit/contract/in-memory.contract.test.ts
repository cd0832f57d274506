import { InMemoryDimensionReader } from '../../../src/adapters/memory/in-memory-dimension-reader.js'
import { InMemoryFactStore } from '../../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { dimensionReaderContract } from '../../../src/testing/contracts/dimension-reader.contract.js'
import { factStoreContract } from '../../../src/testing/contracts/fact-store.contract.js'
import { dimensionNamesContract } from '../../../src/testing/contracts/dimension-names.contract.js'
import { viewMergeContract } from '../../../src/testing/contracts/view-merge.contract.js'
import { stageProgressContract } from '../../../src/testing/contracts/stage-progress.contract.js'
import { InMemoryStageProgressReader } from '../../../src/adapters/memory/in-memory-stage-progress.js'

// The reference semantics: the ClickHouse adapters must give these answers on the same inputs.
const inMemory = async () => {
  const tables = new InMemoryTables()
  return { store: new InMemoryFactStore(tables), readModel: new InMemoryReadModel(tables), forceMerge: async () => {} }
}
factStoreContract('in-memory', inMemory)
viewMergeContract('in-memory', inMemory)
dimensionNamesContract('in-memory', inMemory)

dimensionReaderContract('in-memory', async () => {
  const tables = new InMemoryTables()
  return { store: new InMemoryFactStore(tables), dimensions: new InMemoryDimensionReader(tables) }
})

stageProgressContract('in-memory', async () => {
  const tables = new InMemoryTables()
  return { store: new InMemoryFactStore(tables), progress: new InMemoryStageProgressReader(tables) }
})
