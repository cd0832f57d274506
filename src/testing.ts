// The package's `./testing` entry: the in-memory adapters (for a host's own unit tests) and the
// contract suites every adapter of a port passes, to run against a host's own implementation.
// The suites are written for vitest (an optional peer dependency of this entry only).
export { InMemoryBroker } from './adapters/memory/in-memory-broker.js'
export { InMemoryTables } from './adapters/memory/in-memory-tables.js'
export { InMemoryFactStore } from './adapters/memory/in-memory-fact-store.js'
export { InMemoryDimensionReader } from './adapters/memory/in-memory-dimension-reader.js'
export { InMemoryReadModel } from './adapters/memory/in-memory-read-model.js'
export { InMemoryStageProgressReader } from './adapters/memory/in-memory-stage-progress.js'
export { InMemoryLagReader } from './adapters/memory/in-memory-lag-reader.js'
export { brokerContract, type BrokerUnderTest } from './testing/contracts/broker.contract.js'
export { consumerLagContract, type LagReaderUnderTest } from './testing/contracts/consumer-lag.contract.js'
export { factStoreContract, type FactStoreFixture } from './testing/contracts/fact-store.contract.js'
export { dimensionReaderContract, type DimensionReaderFixture } from './testing/contracts/dimension-reader.contract.js'
export { dimensionNamesContract } from './testing/contracts/dimension-names.contract.js'
export { stageProgressContract, type StageProgressFixture } from './testing/contracts/stage-progress.contract.js'
export { viewMergeContract } from './testing/contracts/view-merge.contract.js'
export { InMemoryConsumer } from './adapters/memory/in-memory-consumer.js'
export { InMemoryLog, type StoredRecord, type GroupMember } from './adapters/memory/in-memory-log.js'
export type { StoredRow } from './adapters/memory/in-memory-tables.js'
// The port types the suites and adapters above speak, as the main entry exports them.
export type * from './index.js'
