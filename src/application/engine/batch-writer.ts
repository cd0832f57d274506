import type { FactRow } from '../../domain/fact-row.js'
import { poison, type Poison } from '../../domain/poison.js'
import type { OutboundRecord } from '../ports/broker.port.js'
import { retriable } from '../ports/retriable.js'
import { StoreError } from '../ports/store-error.js'
import type { BatchSpan, StoreTrace } from '../ports/tracer.port.js'
import type { EngineDeps } from './engine-deps.js'
import type { EngineTelemetry } from './engine-telemetry.js'
import { insertIsolating } from './isolating-insert.js'
import { outboundChunks } from './outbound-chunks.js'
import type { BatchEntry, PendingBatch } from './pending-batch.js'
import type { RecordRouter } from './record-router.js'
import type { StopAwareRetry } from './retry-loop.js'
import { DLQ_REASON } from './side-records.js'

/**
 * Makes one pending batch durable: its rows inserted in chunks of at most maxBatchRows (records
 * whose rows the store refuses are isolated and dead-lettered as store-rejected), then its dead
 * letters and parked copies published in chunks of bounded size. Retriable failures are retried until they pass or the
 * engine stops (Abandoned). Independent batches may be written concurrently; commits stay with
 * the engine's OffsetTracker. While tracing is on, the batch's span holds the inserts and publishes.
 */
export class BatchWriter {
  constructor(
    private readonly deps: Pick<EngineDeps, 'store' | 'producer' | 'clock' | 'tracer' | 'handler' | 'topics' | 'config'>,
    private readonly telemetry: EngineTelemetry,
    private readonly retry: StopAwareRetry,
    private readonly router: RecordRouter,
  ) {}

  async write(batch: PendingBatch): Promise<void> {
    const span = batch.tracing ? this.deps.tracer.batch({ groupId: this.deps.handler.groupId, records: batch.settled, linked: batch.linked, contexts: batch.contexts, openedAt: batch.openedAt }) : undefined
    try {
      await this.durable(batch, span)
      span?.end()
    } catch (e) {
      span?.end(e)
      throw e
    }
  }

  private async durable(batch: PendingBatch, span: BatchSpan | undefined): Promise<void> {
    const { producer, clock, config } = this.deps
    for (const chunk of batch.chunks(batch.insertRows ?? config.maxBatchRows)) {
      for (const { unit, error } of await insertIsolating(chunk, (part) => this.insert(part, span?.store))) {
        this.router.deadLetter(batch, unit.record, storeRejected(error), clock.now(), true)
      }
    }
    this.telemetry.batch(batch.rowCount)
    if (span) span.deadLettered(reasonsOf(batch.outbound, this.deps.topics.deadLetter))
    for (const chunk of outboundChunks(batch.outbound)) {
      await this.retry.run('publish', () => (span ? span.publish(chunk, () => producer.publish(chunk)) : producer.publish(chunk)))
    }
  }

  /** One insert; retried while the store is down, rethrown when the store refuses the rows. */
  private async insert(entries: readonly BatchEntry[], trace: StoreTrace | undefined): Promise<void> {
    const { store, clock } = this.deps
    const rows: FactRow[] = []
    for (const e of entries) for (const row of e.rows) rows.push(row)
    const started = performance.now()
    const at = await this.retry.run(
      'insert',
      async () => {
        const at = clock.now()
        await store.append(rows, at, trace)
        return at
      },
      (e) => !retriable(e),
    )
    this.telemetry.inserted(rows, at, (performance.now() - started) / 1000)
  }
}

/** The dead letters among a batch's outbound records, counted by reason code. */
const reasonsOf = (outbound: readonly OutboundRecord[], deadLetterTopic: string): Map<string, number> => {
  const reasons = new Map<string, number>()
  for (const r of outbound) {
    if (r.topic !== deadLetterTopic) continue
    const reason = r.headers[DLQ_REASON] ?? 'unknown'
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  return reasons
}

/** The dead letter of a record whose rows the store refused; dlq-detail carries the store's code. */
const storeRejected = (e: unknown): Poison => {
  const code = e instanceof StoreError ? e.code : 'UNKNOWN'
  // the server's message may quote the refused row: only its words before any quote or colon
  const message = e instanceof Error ? e.message : String(e)
  const gist = message.replace(/^(ClickHouse error \d+: )?(Code: \d+[.,] (e\.displayText\(\) = )?)?(DB::Exception: )?/, '').split(/[:'"`(]/)[0]?.trim() ?? ''
  return poison('store-rejected', `${code}${gist ? `: ${gist}` : ''}`.slice(0, 200))
}
