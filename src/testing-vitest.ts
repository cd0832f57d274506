// The package's `./testing/vitest` entry: the contract suite of each port, which every adapter of
// the port passes (in-memory, ClickHouse server, chdb; kafkajs, librdkafka), to run against a
// host's own implementation. Written for vitest, an optional peer dependency of this entry only.
export { brokerContract, type BrokerUnderTest } from './testing/contracts/broker.contract.js'
export { consumerLagContract, type LagReaderUnderTest } from './testing/contracts/consumer-lag.contract.js'
export { factStoreContract, type FactStoreFixture } from './testing/contracts/fact-store.contract.js'
export { dimensionReaderContract, versionedDimensionReaderContract, type DimensionReaderFixture } from './testing/contracts/dimension-reader.contract.js'
export { dimensionNamesContract } from './testing/contracts/dimension-names.contract.js'
export { stageProgressContract, type StageProgressFixture } from './testing/contracts/stage-progress.contract.js'
export { viewMergeContract } from './testing/contracts/view-merge.contract.js'
export { groupAdminContract } from './testing/contracts/group-admin.contract.js'
// The port types the suites speak, as the main entry exports them.
export type * from './index.js'
