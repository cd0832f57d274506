import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { Poison } from '../../domain/poison.js'
import type { BrokerRecord } from '../ports/broker.port.js'
import { DEFAULT_GAP_MAX_WAIT_MS } from './engine-config.js'
import type { EngineDeps } from './engine-deps.js'
import type { EngineTelemetry } from './engine-telemetry.js'
import type { ParkingLot } from './parking-lot.js'
import type { PendingBatch } from './pending-batch.js'
import { NO_WARNINGS } from '../handlers/event-handler.js'
import { enrichOutcome, stepOf, type EnrichRequest } from './record-step.js'
import type { StopAwareRetry } from './retry-loop.js'
import { deadLetterRecord, dueAtOf, parkedRecord, windowEndOf } from './side-records.js'

interface Waiting {
  readonly record: BrokerRecord
  readonly attempt: number
  readonly request: EnrichRequest
}

/**
 * Takes records into a pending batch: a parked copy not yet due waits in the parking lot; every
 * other record's step (record-step) becomes rows, a skip, a dead letter or a parked copy. The
 * dimension lookup of the records that need one is a single retried call per slice.
 */
export class RecordRouter {
  constructor(
    private readonly deps: Pick<EngineDeps, 'handler' | 'topics' | 'dimensions' | 'dimensionProgress' | 'tracer' | 'config'>,
    private readonly telemetry: EngineTelemetry,
    private readonly retry: StopAwareRetry,
    private readonly parking: ParkingLot,
  ) {}

  async route(records: readonly BrokerRecord[], batch: PendingBatch, now: Instant): Promise<void> {
    const { handler, topics, tracer } = this.deps
    const tracing = (batch.tracing ??= tracer.enabled)
    const waiting: Waiting[] = []
    for (const r of records) {
      if (r.topic === topics.retry && dueAtOf(r) > now) {
        // read again while it waits (a rejoin that kept the partition): the waiting read takes its step
        if (!this.parking.hold(r, dueAtOf(r))) {
          this.telemetry.duplicate()
          batch.settle(r)
        }
        continue
      }
      const step = stepOf(r, handler, now, batch.seen)
      if (step.kind === 'duplicate') {
        this.telemetry.duplicate()
        batch.settle(r)
        continue
      }
      if (step.context) {
        batch.sighted(step.context.messageId)
        if (tracing && step.context.traceparent !== undefined) batch.link(r, step.context)
        this.telemetry.noted(step.context, step.kind === 'rows' || step.kind === 'enrich' ? step.warnings : NO_WARNINGS)
      }
      if (step.kind === 'poison') this.deadLetter(batch, r, step.poison, now)
      else if (step.kind === 'skip') this.skip(batch, r, step.reason)
      else if (step.kind === 'rows') batch.settle(r, step.rows)
      else waiting.push({ record: r, attempt: step.attempt, request: step.request })
    }
    if (waiting.length > 0) await this.enrich(batch, waiting, now)
  }

  /** A dead letter for `r`; `settled` when the record is already in the batch (store-rejected). */
  deadLetter(batch: PendingBatch, r: BrokerRecord, p: Poison, now: Instant, settled = false): void {
    const { topics, handler } = this.deps
    const record = deadLetterRecord(r, p, topics.deadLetter, handler.groupId, now)
    if (settled) batch.outbound.push(record)
    else batch.settle(r, [], record)
    this.telemetry.deadLettered(r, p)
  }

  private skip(batch: PendingBatch, r: BrokerRecord, reason: string): void {
    batch.settle(r)
    this.telemetry.skipped(reason)
  }

  private async enrich(batch: PendingBatch, waiting: readonly Waiting[], now: Instant): Promise<void> {
    const { dimensions, dimensionProgress: progress, config, topics } = this.deps
    // Read before the lookup: what it says was stored is visible to the lookup.
    const fed = progress?.fed === true
    const storedThrough = fed ? progress?.storedThrough() : undefined
    const maxWaitMs = config.parking.gapMaxWaitMs ?? DEFAULT_GAP_MAX_WAIT_MS
    const ids = [...new Set(waiting.map((w) => w.request.propertyObjectId))]
    const paths = await this.retry.run('dimension lookup', () => dimensions.latestPaths(ids))
    const parked: { propertyObjectId: Guid; attempt: number }[] = []
    for (const { record, attempt, request } of waiting) {
      const evidence = fed ? { windowEnd: windowEndOf(record), storedThrough, maxWaitMs } : undefined
      const outcome = enrichOutcome(request, attempt, paths.get(request.propertyObjectId), config.parking, now, evidence)
      if (outcome.kind === 'rows') {
        if (outcome.recovered) this.telemetry.recovered()
        batch.settle(record, outcome.rows)
      } else if (outcome.kind === 'gap') {
        if (outcome.unproven) this.telemetry.gapUnproven(record, request.propertyObjectId, maxWaitMs)
        this.deadLetter(batch, record, outcome.poison, now)
      } else {
        batch.settle(record, [], parkedRecord(record, outcome.attempt, outcome.dueAt, topics.retry, outcome.windowEnd))
        parked.push({ propertyObjectId: request.propertyObjectId, attempt: outcome.attempt })
      }
    }
    this.telemetry.parked(parked)
  }
}
