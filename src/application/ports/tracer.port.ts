import type { EventContext } from '../../domain/envelope.js'
import type { BrokerRecord, OutboundRecord } from './broker.port.js'

/**
 * Traces of the engine's work, following OpenTelemetry's messaging and database conventions
 * (adapters/observability/otel-tracer.ts). While no tracing SDK is registered `enabled` is
 * false and the engine builds nothing for tracing: no span, no trace context gathered per record.
 */
export interface Tracer {
  /** Asked once per routed slice of records, never per record. */
  readonly enabled: boolean
  /** The span of one batch, from its first record taken until it is durable. */
  batch(batch: TracedBatch): BatchSpan
}

/** One pending batch as tracing sees it; built only while tracing is enabled. */
export interface TracedBatch {
  readonly groupId: string
  /** Every record the batch settled, in the order taken. */
  readonly records: readonly BrokerRecord[]
  /** The records that carried a trace context (`linked[i]` carried `contexts[i]`): one link each. */
  readonly linked: readonly BrokerRecord[]
  readonly contexts: readonly EventContext[]
  /** performance.now() when the first record was taken. */
  readonly openedAt: number | undefined
}

export interface BatchSpan {
  /** Handed to the store: each database call it makes becomes a child span. */
  readonly store: StoreTrace
  /** One publish of dead letters or parked copies, as a child span (each attempt its own). */
  publish<T>(records: readonly OutboundRecord[], work: () => Promise<T>): Promise<T>
  /** Dead letters of this batch by reason code: recorded as errors, without any payload value. */
  deadLettered(reasons: ReadonlyMap<string, number>): void
  /** Ends the span; `error` when the batch was not made durable (e.g. abandoned at shutdown). */
  end(error?: unknown): void
}

/** What a store tells about one database call; no row value ever goes into a span. */
export interface DbCall {
  /** OpenTelemetry's db.system.name, e.g. `clickhouse`. */
  readonly system: string
  readonly operation: string
  readonly namespace?: string
  readonly collection: string
  readonly rows: number
  /** The statement without its data (the rows travel as the request body). */
  readonly queryText?: string
  readonly serverAddress?: string
  readonly serverPort?: number
}

export interface StoreTrace {
  /** Runs one database call in a child span of the batch; a failure is recorded by its error code. */
  call<T>(call: DbCall, work: () => Promise<T>): Promise<T>
}
