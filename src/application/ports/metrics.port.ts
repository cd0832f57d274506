import type { FactTable } from '../../domain/fact-row.js'
import type { AssumptionBreach } from '../../domain/serving-window.js'

/** The metric family of spec §9; every call is labelled by consumer. */
export interface IngestMetrics {
  rowsIngested(consumer: string, table: FactTable, count: number): void
  ingestLag(consumer: string, seconds: number): void
  /** Kafka record timestamp → effects durable, per source record (the lag alert's measure). */
  arrivalLag(consumer: string, seconds: number): void
  batchSize(consumer: string, rows: number): void
  insertDuration(consumer: string, seconds: number): void
  deadLettered(consumer: string, reason: string): void
  skipped(consumer: string, reason: string): void
  sinkRetry(consumer: string): void
  parked(consumer: string): void
  recoveredFromParking(consumer: string): void
  dimensionGap(consumer: string): void
  /** A dimension gap dead-lettered after the maximum wait, its window never proven stored (optional for a host's own metrics). */
  dimensionGapUnproven?(consumer: string): void
  contractVersionMismatch(consumer: string): void
  /** An insert the store refused for too many parts (ClickHouse code 252), retried (optional for a host's own metrics). */
  tooManyParts?(consumer: string): void
  /** The consumer paused its partitions: the process's memory budget was spent (optional for a host's own metrics). */
  memoryBudgetPaused?(consumer: string): void
  /** A fact stored outside the producers' assumptions the serving rows rest on (domain/serving-window.ts; optional for a host's own metrics). */
  servingOutOfAssumption?(consumer: string, reason: AssumptionBreach): void
  /** Day records a read computed that the store did not take (the read answered; a later one computes them again; optional for a host's own metrics). */
  dayRecordsNotStored?(): void
}
