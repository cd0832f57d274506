// The package's `./testing` entry: the in-memory adapters, for a host's own unit tests (any test
// framework). The contract suites are in `./testing/vitest`.
export { InMemoryBroker } from './adapters/memory/in-memory-broker.js'
export { InMemoryTables } from './adapters/memory/in-memory-tables.js'
export { InMemoryFactStore } from './adapters/memory/in-memory-fact-store.js'
export { InMemoryDimensionReader } from './adapters/memory/in-memory-dimension-reader.js'
export { InMemoryReadModel, type InMemoryViewSessionSource } from './adapters/memory/in-memory-read-model.js'
// The read model reads the serving rows by default: write through ServingFactStore(new
// InMemoryFactStore(tables), new InMemoryServingIndex(tables)), as the library's memory store does.
export { InMemoryServingIndex } from './adapters/memory/in-memory-serving-index.js'
export { ServingFactStore } from './application/serving/serving-fact-store.js'
export type { ServingIndex } from './application/ports/serving-index.port.js'
export type { DeveloperWrite, DeveloperSource } from './domain/developer-writes.js'
export type { StoredDayRecord } from './application/ports/day-records.port.js'
export type { CarryIn, DayRecord, DayStamp } from './domain/day-records.js'
export type { ServingViewRow, ServingSessionRow, ViewLink, SessionLink, DayedSessionLink, SessionDeveloperLink, DayNumber } from './domain/serving-links.js'
export { InMemoryStageProgressReader } from './adapters/memory/in-memory-stage-progress.js'
export { InMemoryLagReader } from './adapters/memory/in-memory-lag-reader.js'
export { InMemoryConsumer } from './adapters/memory/in-memory-consumer.js'
export { InMemoryLog, type StoredRecord, type GroupMember } from './adapters/memory/in-memory-log.js'
export type { StoredOf, StoredRow } from './adapters/memory/in-memory-tables.js'
// The port types the suites and adapters above speak, as the main entry exports them.
export type * from './index.js'
