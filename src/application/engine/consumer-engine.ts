import type { Instant } from '../../domain/instant.js'
import { poison, type Poison } from '../../domain/poison.js'
import type { EventHandler } from '../handlers/event-handler.js'
import type { BrokerConsumer, BrokerProducer, BrokerRecord, TopicPartition } from '../ports/broker.port.js'
import type { Clock } from '../ports/clock.port.js'
import type { DimensionReader } from '../ports/dimension-reader.port.js'
import type { FactStore } from '../ports/fact-store.port.js'
import type { Logger } from '../ports/logger.port.js'
import type { IngestMetrics } from '../ports/metrics.port.js'
import { retriable } from '../ports/retriable.js'
import { StoreError } from '../ports/store-error.js'
import type { Tracer } from '../ports/tracer.port.js'
import { arrivalLagsOf } from './arrival-lag.js'
import { DEFAULT_FLUSHES_IN_FLIGHT, DEFAULT_PARKING_MAX_IN_MEMORY, type EngineConfig, type EngineTopics } from './engine-config.js'
import { EngineStats } from './engine-stats.js'
import { EngineTelemetry } from './engine-telemetry.js'
import { insertIsolating } from './isolating-insert.js'
import { OffsetTracker } from './offset-tracker.js'
import { OrderedFlushes } from './ordered-flushes.js'
import { ParkingLot } from './parking-lot.js'
import { PendingBatch, type BatchEntry } from './pending-batch.js'
import { enrichOutcome, stepOf, type EnrichRequest } from './record-step.js'
import { Abandoned, StopAwareRetry } from './retry-loop.js'
import { deadLetterRecord, dueAtOf, parkedRecord } from './side-records.js'

export interface EngineDeps {
  readonly handler: EventHandler
  readonly topics: EngineTopics
  readonly consumer: BrokerConsumer
  readonly producer: BrokerProducer
  readonly store: FactStore
  readonly dimensions: DimensionReader
  readonly clock: Clock
  readonly logger: Logger
  readonly metrics: IngestMetrics
  readonly tracer: Tracer
  readonly config: EngineConfig
}

interface Waiting {
  readonly record: BrokerRecord
  readonly attempt: number
  readonly request: EnrichRequest
}

/**
 * The one consumer engine every handler plugs into: per record a pure step (record-step), per
 * batch insert (isolating rows the store refuses), publish dead letters and parked copies, and
 * only then commit. All work runs on one serial lane, so a batch, a timer tick and a revocation
 * never interleave; only the inserts of sealed batches overlap (ordered-flushes).
 */
export class ConsumerEngine {
  readonly stats = new EngineStats()
  private readonly telemetry: EngineTelemetry
  private readonly retry: StopAwareRetry
  private readonly parking: ParkingLot
  private readonly tracker = new OffsetTracker()
  private readonly flushes: OrderedFlushes
  /** Sink operations retrying now: the consumer stays paused until the last one settles. */
  private failing = 0
  /** abort(): batches still inserting must not commit, as in a killed process. */
  private aborted = false
  private batch = new PendingBatch()
  private lane: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private tickQueued = false

  constructor(private readonly deps: EngineDeps) {
    const { consumer, clock, metrics, logger, handler, config, topics } = deps
    this.flushes = new OrderedFlushes(config.flushesInFlight ?? DEFAULT_FLUSHES_IN_FLIGHT)
    this.telemetry = new EngineTelemetry(this.stats, metrics, logger, handler.name)
    this.parking = new ParkingLot(config.parking.maxInMemory ?? DEFAULT_PARKING_MAX_IN_MEMORY, {
      close: (waiting) => {
        consumer.pauseTopic(topics.retry)
        this.telemetry.parkingGate(true, waiting)
      },
      open: (waiting) => {
        consumer.resumeTopic(topics.retry)
        this.telemetry.parkingGate(false, waiting)
      },
    })
    this.retry = new StopAwareRetry(config.sinkBackoff, {
      failed: (what, e, attempt, retryInMs) => {
        if (attempt === 1 && retryInMs !== undefined && this.failing++ === 0) consumer.pause()
        this.telemetry.sinkFailed(what, e, attempt, retryInMs, clock.now())
      },
      settled: () => {
        this.failing = Math.max(0, this.failing - 1)
        if (this.failing === 0) consumer.resume()
        this.telemetry.sinkSettled()
      },
    })
  }

  get name(): string {
    return this.deps.handler.name
  }

  get handler(): EventHandler {
    return this.deps.handler
  }

  get topics(): EngineTopics {
    return this.deps.topics
  }

  get parkedInMemory(): number {
    return this.parking.size
  }

  async start(): Promise<void> {
    const { consumer, topics, config } = this.deps
    await consumer.run([topics.source, topics.retry], {
      onBatch: (records) => this.serial(() => this.accept(records)),
      onRevoked: (partitions) => this.serial(() => this.revoke(partitions)),
    })
    this.timer = setInterval(() => this.queueTick(), Math.max(10, Math.min(250, config.flushIntervalMs / 4)))
  }

  /** Flushes what is pending (abandoning it if the store stays down), then leaves the group. */
  async stop(): Promise<void> {
    this.halt()
    await this.serial(() => this.flushAll()).catch((e) => this.abandoned(e))
    await this.deps.consumer.stop()
  }

  /** Stops at once, as a killed process would: nothing pending is flushed or committed. */
  abort(): void {
    this.aborted = true
    this.halt()
  }

  /** Flush now (tests and shutdown); the timer does the same after flushIntervalMs. */
  drain(): Promise<void> {
    return this.serial(async () => {
      await this.releaseDue()
      await this.flushAll()
    })
  }

  private halt(): void {
    clearInterval(this.timer)
    this.retry.stop()
    this.telemetry.sinkSettled()
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work)
    this.lane = run.catch(() => undefined)
    return run
  }

  private queueTick(): void {
    if (this.tickQueued) return
    this.tickQueued = true
    void this.serial(async () => {
      this.tickQueued = false
      await this.releaseDue()
      const { openedAt } = this.batch
      if (openedAt !== undefined && performance.now() - openedAt >= this.deps.config.flushIntervalMs) await this.flush()
    }).catch((e) => this.abandoned(e))
  }

  private abandoned(e: unknown): void {
    if (!(e instanceof Abandoned)) this.telemetry.stepFailed(e)
  }

  private async accept(records: readonly BrokerRecord[]): Promise<void> {
    this.telemetry.consumed(records)
    for (const r of records) this.tracker.received(r)
    let i = 0
    while (i < records.length) {
      const room = Math.max(1, this.deps.config.maxBatchRows - this.batch.size)
      const slice = records.slice(i, i + room)
      i += slice.length
      await this.process(slice)
      if (this.batch.size >= this.deps.config.maxBatchRows) await this.flush()
    }
  }

  private async releaseDue(): Promise<void> {
    const due = this.parking.takeDue(this.deps.clock.now())
    if (due.length > 0) await this.process(due)
  }

  private async process(records: readonly BrokerRecord[]): Promise<void> {
    const { handler, topics, clock, tracer } = this.deps
    const now = clock.now()
    const waiting: Waiting[] = []
    const links: string[] = []
    await tracer.span('consume', { consumer: handler.name, records: records.length }, async () => {
      for (const r of records) {
        if (r.topic === topics.retry && dueAtOf(r) > now) {
          this.parking.hold(r, dueAtOf(r))
          continue
        }
        const step = stepOf(r, handler, now, this.batch.seen)
        if (step.kind === 'duplicate') {
          this.telemetry.duplicate()
          this.batch.settle(r)
          continue
        }
        if (step.notes) {
          this.batch.sighted(step.notes.messageId)
          if (step.notes.traceparent) links.push(step.notes.traceparent)
          this.telemetry.noted(step.notes)
        }
        if (step.kind === 'poison') this.deadLetter(this.batch, r, step.poison, now)
        else if (step.kind === 'skip') this.skip(r, step.reason)
        else if (step.kind === 'rows') this.batch.settle(r, step.rows)
        else waiting.push({ record: r, attempt: step.attempt, request: step.request })
      }
      if (waiting.length > 0) await this.enrich(waiting, now)
    }, links)
    this.batch.traceparents.push(...links)
  }

  private deadLetter(batch: PendingBatch, r: BrokerRecord, p: Poison, now: Instant, alreadySettled = false): void {
    const { topics, handler } = this.deps
    const record = deadLetterRecord(r, p, topics.deadLetter, handler.groupId, now)
    if (alreadySettled) batch.outbound.push(record)
    else batch.settle(r, [], record)
    this.telemetry.deadLettered(r, p)
  }

  private skip(r: BrokerRecord, reason: string): void {
    this.batch.settle(r)
    this.telemetry.skipped(reason)
  }

  private async enrich(waiting: readonly Waiting[], now: Instant): Promise<void> {
    const { dimensions, config, topics } = this.deps
    const ids = [...new Set(waiting.map((w) => w.request.propertyObjectId))]
    const paths = await this.retry.run('dimension lookup', () => dimensions.latestPaths(ids))
    for (const { record, attempt, request } of waiting) {
      const outcome = enrichOutcome(request, attempt, paths.get(request.propertyObjectId), config.parking, now)
      if (outcome.kind === 'rows') {
        if (outcome.recovered) this.telemetry.recovered()
        this.batch.settle(record, outcome.rows)
      } else if (outcome.kind === 'gap') {
        this.deadLetter(this.batch, record, outcome.poison, now)
      } else {
        this.batch.settle(record, [], parkedRecord(record, outcome.attempt, outcome.dueAt, topics.retry))
        this.telemetry.parked(request.propertyObjectId, outcome.attempt)
      }
    }
  }

  /**
   * Seals the pending batch and starts making it durable; the lane goes on taking records while
   * up to flushesInFlight batches insert. Commits still follow inserts, strictly in batch order.
   */
  private async flush(): Promise<void> {
    const batch = this.batch
    this.batch = new PendingBatch()
    if (batch.size === 0) return
    await this.flushes.add(this.durable(batch), () => this.commitAfter(batch), (e) => this.abandoned(e))
  }

  /** Flushes and waits until every sealed batch is committed (or abandoned). */
  private async flushAll(): Promise<void> {
    await this.flush()
    await this.flushes.settled()
  }

  /** Inserts a batch's rows (isolating rows the store refuses), then publishes its side records. */
  private async durable(batch: PendingBatch): Promise<void> {
    const { producer, clock, config } = this.deps
    for (const chunk of batch.chunks(config.maxBatchRows)) {
      for (const { unit, error } of await insertIsolating(chunk, (part) => this.insert(part, batch.traceparents))) {
        this.deadLetter(batch, unit.record, storeRejected(error), clock.now(), true)
      }
    }
    this.telemetry.batch(batch.rowCount)
    if (batch.outbound.length > 0) await this.retry.run('publish', () => producer.publish(batch.outbound))
  }

  /** Runs once this batch and every earlier one are durable: its offsets are done, commit what is contiguous. */
  private async commitAfter(batch: PendingBatch): Promise<void> {
    const { consumer, clock } = this.deps
    if (this.aborted) return
    this.telemetry.arrived(arrivalLagsOf(batch.settled, this.deps.topics.source, clock.now()))
    for (const r of batch.settled) this.tracker.done(r)
    const commits = this.tracker.committable()
    if (commits.length === 0) return
    try {
      await consumer.commit(commits)
      this.tracker.markCommitted(commits)
      this.telemetry.committed(clock.now())
    } catch (e) {
      this.telemetry.commitFailed(e)
    }
  }

  /** One insert of some entries; retried while the store is down, rethrown when it refuses the rows. */
  private async insert(entries: readonly BatchEntry[], links: readonly string[]): Promise<void> {
    const { store, clock, tracer, handler } = this.deps
    const rows = entries.flatMap((e) => e.rows)
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

  /** Batches in flight finish first: their records' offsets are still ours to commit. */
  private async revoke(partitions: readonly TopicPartition[]): Promise<void> {
    await this.flushes.settled()
    this.tracker.revoke(partitions)
    this.parking.revoke(partitions)
  }
}

/** The dead letter of a record whose rows the store refused; dlq-detail carries the store's code. */
const storeRejected = (e: unknown): Poison => {
  const code = e instanceof StoreError ? e.code : 'UNKNOWN'
  const message = e instanceof Error ? e.message : String(e)
  return poison('store-rejected', `${code}: ${message}`.slice(0, 1000))
}
