import * as E from 'fp-ts/lib/Either.js'
import { checkContractVersion } from '../../domain/contract-version.js'
import { decodeEnvelope } from '../../domain/envelope.js'
import { eventTimeOf, type FactRow } from '../../domain/fact-row.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import { poison, type Poison } from '../../domain/poison.js'
import type { EventHandler, Interpretation } from '../handlers/event-handler.js'
import type { BrokerConsumer, BrokerProducer, BrokerRecord, TopicPartition } from '../ports/broker.port.js'
import type { Clock } from '../ports/clock.port.js'
import type { DimensionReader } from '../ports/dimension-reader.port.js'
import type { FactStore } from '../ports/fact-store.port.js'
import type { Logger } from '../ports/logger.port.js'
import type { IngestMetrics } from '../ports/metrics.port.js'
import { retriable } from '../ports/retriable.js'
import type { Tracer } from '../ports/tracer.port.js'
import { backoffDelay } from './backoff.js'
import type { EngineConfig, EngineTopics } from './engine-config.js'
import { arrivalLagsOf } from './arrival-lag.js'
import { EngineStats } from './engine-stats.js'
import { OffsetTracker } from './offset-tracker.js'
import { PendingBatch } from './pending-batch.js'
import { attemptOf, deadLetterRecord, dueAtOf, parkedRecord } from './side-records.js'

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

/** Thrown out of a retry loop when the engine is stopping: the batch is abandoned, not committed. */
class Abandoned extends Error {}

interface Enrichment {
  readonly record: BrokerRecord
  readonly attempt: number
  readonly request: Extract<Interpretation, { kind: 'enrich' }>
}

/**
 * The one consumer engine every handler plugs into: decode → validate → map per record, dedup
 * by message id, flush at maxBatchRows or flushIntervalMs, insert and publish dead letters and
 * parked copies, and only then commit. All work runs on one serial lane, so a batch, a timer
 * tick and a revocation never interleave.
 */
export class ConsumerEngine {
  readonly stats = new EngineStats()
  private batch = new PendingBatch()
  private readonly tracker = new OffsetTracker()
  private delayed: { record: BrokerRecord; dueAt: Instant }[] = []
  private lane: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private tickQueued = false
  private stopping = false
  /** Resolves when stop() or abort() is called: cuts a backoff sleep short. */
  private stopped!: () => void
  private readonly stopSignal = new Promise<void>((resolve) => (this.stopped = resolve))

  constructor(private readonly deps: EngineDeps) {}

  get name(): string {
    return this.deps.handler.name
  }

  get handler(): EventHandler {
    return this.deps.handler
  }

  get topics(): EngineTopics {
    return this.deps.topics
  }

  async start(): Promise<void> {
    const { consumer, topics, config } = this.deps
    await consumer.run([topics.source, topics.retry], {
      onBatch: (records) => this.serial(() => this.accept(records)),
      onRevoked: (partitions) => this.serial(async () => this.revoke(partitions)),
    })
    this.timer = setInterval(() => this.queueTick(), Math.max(10, Math.min(250, config.flushIntervalMs / 4)))
  }

  /** Flushes what is pending (abandoning it if the store stays down), then leaves the group. */
  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.stopping = true
    this.stopped()
    await this.serial(() => this.flush()).catch((e) => this.abandoned(e))
    await this.deps.consumer.stop()
  }

  /** Stops at once, as a killed process would: nothing pending is flushed or committed. */
  abort(): void {
    clearInterval(this.timer)
    this.stopping = true
    this.stopped()
  }

  /** Flush now (tests and shutdown); the timer does the same after flushIntervalMs. */
  drain(): Promise<void> {
    return this.serial(async () => {
      await this.releaseDue()
      await this.flush()
    })
  }

  get parkedInMemory(): number {
    return this.delayed.length
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
      if (openedAt !== undefined && performance.now() - openedAt >= this.deps.config.flushIntervalMs) {
        await this.flush()
      }
    }).catch((e) => this.abandoned(e))
  }

  private abandoned(e: unknown): void {
    if (e instanceof Abandoned) return
    this.deps.logger.error({ consumer: this.name, err: String(e) }, 'engine step failed')
  }

  private async accept(records: readonly BrokerRecord[]): Promise<void> {
    const first = records[0]
    const last = records.at(-1)
    if (!first || !last) return
    this.deps.logger.info(
      { consumer: this.name, topic: first.topic, partition: first.partition, from: first.offset, to: last.offset, size: records.length },
      'consumed',
    )
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
    const now = this.deps.clock.now()
    const due = this.delayed.filter((d) => d.dueAt <= now).map((d) => d.record)
    if (due.length === 0) return
    this.delayed = this.delayed.filter((d) => d.dueAt > now)
    await this.process(due)
  }

  private async process(records: readonly BrokerRecord[]): Promise<void> {
    const { handler, topics, clock, tracer } = this.deps
    const now = clock.now()
    const enrichments: Enrichment[] = []
    const links: string[] = []
    await tracer.span('consume', { consumer: handler.name, records: records.length }, async () => {
      for (const r of records) {
        if (r.topic === topics.retry && dueAtOf(r) > now) {
          this.delayed.push({ record: r, dueAt: dueAtOf(r) })
          continue
        }
        const step = this.interpret(r, now, links)
        if (step === 'duplicate') this.batch.settle(r)
        else if (E.isLeft(step)) this.deadLetter(r, step.left, now)
        else if (step.right.kind === 'skip') this.skip(r, step.right.reason)
        else if (step.right.kind === 'rows') this.batch.settle(r, step.right.rows)
        else enrichments.push({ record: r, attempt: attemptOf(r), request: step.right })
      }
      if (enrichments.length > 0) await this.enrich(enrichments, now)
    }, links)
    this.batch.traceparents.push(...links)
  }

  private interpret(r: BrokerRecord, now: Instant, links: string[]): E.Either<Poison, Interpretation> | 'duplicate' {
    const { handler, logger, metrics } = this.deps
    const envelope = decodeEnvelope(r)
    if (E.isLeft(envelope)) return envelope
    const { context } = envelope.right
    if (!this.batch.firstSighting(context.messageId)) {
      this.stats.duplicatesDropped++
      return 'duplicate'
    }
    if (context.traceparent) links.push(context.traceparent)
    const mismatch = checkContractVersion(context.contractVersion)
    if (mismatch) {
      metrics.contractVersionMismatch(handler.name)
      logger.warn({ consumer: handler.name, sourceEventId: context.messageId, ...mismatch }, 'contract version mismatch; processing the compatible part')
    }
    const result = handler.interpret(envelope.right, now)
    if (E.isRight(result) && result.right.kind !== 'skip') {
      for (const warning of result.right.warnings ?? []) {
        logger.warn({ consumer: handler.name, sourceEventId: context.messageId }, warning)
      }
    }
    return result
  }

  private deadLetter(r: BrokerRecord, p: Poison, now: Instant): void {
    const { handler, topics, logger, metrics } = this.deps
    this.batch.settle(r, [], deadLetterRecord(r, p, topics.deadLetter, handler.groupId, now))
    this.stats.bump(this.stats.deadLetters, p.reason)
    metrics.deadLettered(handler.name, p.reason)
    logger.error(
      { consumer: handler.name, reason: p.reason, detail: p.detail, sourceEventId: r.headers['ce_id'], topic: r.topic, partition: r.partition, offset: r.offset },
      'skipped-poison',
    )
  }

  private skip(r: BrokerRecord, reason: string): void {
    this.batch.settle(r)
    this.stats.bump(this.stats.skipped, reason)
    this.deps.metrics.skipped(this.deps.handler.name, reason)
  }

  private async enrich(enrichments: readonly Enrichment[], now: Instant): Promise<void> {
    const { dimensions, config, topics, handler, metrics, logger } = this.deps
    const ids = [...new Set(enrichments.map((e) => e.request.propertyObjectId))]
    const paths = await this.untilDone('dimension lookup', () => dimensions.latestPaths(ids))
    for (const { record, attempt, request } of enrichments) {
      const path = paths.get(request.propertyObjectId)
      if (path) {
        if (attempt > 0) {
          this.stats.recovered++
          metrics.recoveredFromParking(handler.name)
        }
        this.batch.settle(record, request.complete(path))
      } else if (attempt + 1 >= config.parking.maxAttempts) {
        this.stats.dimensionGaps++
        metrics.dimensionGap(handler.name)
        this.deadLetter(record, gap(request.propertyObjectId, attempt + 1), now)
      } else {
        const dueAt = now + backoffDelay(config.parking.backoff, attempt + 1)
        this.batch.settle(record, [], parkedRecord(record, attempt + 1, dueAt, topics.retry))
        this.stats.parked++
        metrics.parked(handler.name)
        logger.info({ consumer: handler.name, propertyObjectId: request.propertyObjectId, attempt: attempt + 1 }, 'parked for a late dimension')
      }
    }
  }

  private async flush(): Promise<void> {
    const batch = this.batch
    this.batch = new PendingBatch()
    if (batch.size === 0) return
    const { store, producer, consumer, clock, metrics, logger, tracer, handler, config } = this.deps
    for (let i = 0; i < batch.rows.length; i += config.maxBatchRows) {
      const chunk = batch.rows.slice(i, i + config.maxBatchRows)
      const started = performance.now()
      const ingestionTime = await this.untilDone('insert', () =>
        tracer.span('insert', { consumer: handler.name, rows: chunk.length }, async () => {
          const at = clock.now()
          await store.append(chunk, at)
          return at
        }, batch.traceparents),
      )
      this.recordFlush(chunk, ingestionTime, (performance.now() - started) / 1000)
    }
    metrics.batchSize(handler.name, batch.rows.length)
    if (batch.outbound.length > 0) await this.untilDone('publish', () => producer.publish(batch.outbound))
    for (const s of arrivalLagsOf(batch.settled, this.deps.topics.source, clock.now())) metrics.arrivalLag(handler.name, s)
    for (const r of batch.settled) this.tracker.done(r)
    const commits = this.tracker.committable()
    if (commits.length === 0) return
    try {
      await consumer.commit(commits)
      this.tracker.markCommitted(commits)
      this.stats.lastCommitAt = clock.now()
    } catch (e) {
      // Harmless: the effects are durable; the next flush commits further, or the records come again.
      logger.warn({ consumer: handler.name, err: String(e) }, 'offset commit failed')
    }
  }

  private recordFlush(rows: readonly FactRow[], ingestionTime: Instant, seconds: number): void {
    const { metrics, logger, handler } = this.deps
    let maxLag = 0
    const perTable = new Map<FactRow['table'], number>()
    for (const row of rows) {
      const lag = Math.max(0, (ingestionTime - eventTimeOf(row)) / 1000)
      metrics.ingestLag(handler.name, lag)
      if (lag > maxLag) maxLag = lag
      perTable.set(row.table, (perTable.get(row.table) ?? 0) + 1)
    }
    for (const [table, count] of perTable) metrics.rowsIngested(handler.name, table, count)
    metrics.insertDuration(handler.name, seconds)
    this.stats.rowsIngested += rows.length
    this.stats.flushes++
    this.stats.lastLagSeconds = maxLag
    logger.info({ consumer: handler.name, rows: rows.length, insertSeconds: seconds }, 'flushed')
  }

  /** Retries `work` with exponential backoff until it succeeds; the consumer is paused meanwhile. */
  private async untilDone<T>(what: string, work: () => Promise<T>): Promise<T> {
    const { consumer, config, logger, metrics, handler } = this.deps
    for (let attempt = 1; ; attempt++) {
      try {
        const result = await work()
        if (attempt > 1) consumer.resume()
        this.stats.retryingSince = undefined
        return result
      } catch (e) {
        if (this.stopping) throw this.abandon(what)
        if (attempt === 1) consumer.pause()
        this.stats.sinkRetries++
        this.stats.retryingSince ??= this.deps.clock.now()
        const failure = { what, message: e instanceof Error ? e.message : String(e), retriable: retriable(e) }
        this.stats.lastFailure = failure
        metrics.sinkRetry(handler.name)
        const delay = backoffDelay(config.sinkBackoff, attempt)
        logger.error({ consumer: handler.name, err: String(e), retriable: failure.retriable, attempt, retryInMs: delay }, `failed: ${what}`)
        await this.backoff(delay)
        if (this.stopping) throw this.abandon(what)
      }
    }
  }

  private abandon(what: string): Abandoned {
    this.stats.retryingSince = undefined
    return new Abandoned(`${what} abandoned at shutdown`)
  }

  /** Sleeps before the next attempt; stop() or abort() wakes it at once and clears the timer. */
  private backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms)
      void this.stopSignal.then(() => {
        clearTimeout(timer)
        resolve()
      })
    })
  }

  private revoke(partitions: readonly TopicPartition[]): void {
    this.tracker.revoke(partitions)
    const revoked = (r: BrokerRecord) => partitions.some((p) => p.topic === r.topic && p.partition === r.partition)
    this.delayed = this.delayed.filter((d) => !revoked(d.record))
  }
}

const gap = (propertyObjectId: Guid, attempts: number): Poison =>
  poison('dimension-gap', `dim_property_object has no row for ${propertyObjectId} after ${attempts} attempts`)
