import type { FactRow } from '../../domain/fact-row.js'
import { poison, type Poison } from '../../domain/poison.js'
import { retriable } from '../ports/retriable.js'
import { StoreError } from '../ports/store-error.js'
import type { EngineDeps } from './engine-deps.js'
import type { EngineTelemetry } from './engine-telemetry.js'
import { insertIsolating } from './isolating-insert.js'
import { outboundChunks } from './outbound-chunks.js'
import type { BatchEntry, PendingBatch } from './pending-batch.js'
import type { RecordRouter } from './record-router.js'
import type { StopAwareRetry } from './retry-loop.js'

/**
 * Makes one pending batch durable: its rows inserted in chunks of at most maxBatchRows (records
 * whose rows the store refuses are isolated and dead-lettered as store-rejected), then its dead
 * letters and parked copies published in chunks of bounded size. Retriable failures are retried until they pass or the
 * engine stops (Abandoned). Independent batches may be written concurrently; commits stay with
 * the engine's OffsetTracker.
 */
export class BatchWriter {
  constructor(
    private readonly deps: Pick<EngineDeps, 'store' | 'producer' | 'clock' | 'tracer' | 'handler' | 'config'>,
    private readonly telemetry: EngineTelemetry,
    private readonly retry: StopAwareRetry,
    private readonly router: RecordRouter,
  ) {}

  async write(batch: PendingBatch): Promise<void> {
    const { producer, clock, config } = this.deps
    for (const chunk of batch.chunks(config.maxBatchRows)) {
      for (const { unit, error } of await insertIsolating(chunk, (part) => this.insert(part, batch.traceparents))) {
        this.router.deadLetter(batch, unit.record, storeRejected(error), clock.now(), true)
      }
    }
    this.telemetry.batch(batch.rowCount)
    for (const chunk of outboundChunks(batch.outbound)) {
      await this.retry.run('publish', () => producer.publish(chunk))
    }
  }

  /** One insert; retried while the store is down, rethrown when the store refuses the rows. */
  private async insert(entries: readonly BatchEntry[], links: readonly string[]): Promise<void> {
    const { store, clock, tracer, handler } = this.deps
    const rows: FactRow[] = []
    for (const e of entries) for (const row of e.rows) rows.push(row)
    const started = performance.now()
    const at = await this.retry.run(
      'insert',
      () =>
        tracer.span('insert', { consumer: handler.name, rows: rows.length }, async () => {
          const at = clock.now()
          await store.append(rows, at)
          return at
        }, links),
      (e) => !retriable(e),
    )
    this.telemetry.inserted(rows, at, (performance.now() - started) / 1000)
  }
}

/** The dead letter of a record whose rows the store refused; dlq-detail carries the store's code. */
const storeRejected = (e: unknown): Poison => {
  const code = e instanceof StoreError ? e.code : 'UNKNOWN'
  const message = e instanceof Error ? e.message : String(e)
  return poison('store-rejected', `${code}: ${message}`.slice(0, 1000))
}
