import { checkContractVersion } from '../../domain/contract-version.js'
import { StoreError } from '../ports/store-error.js'
import type { EventContext } from '../../domain/envelope.js'
import type { FactRow } from '../../domain/fact-row.js'
import { eventTimeOf } from '../../domain/fact-row.js'
import type { Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import type { Poison } from '../../domain/poison.js'
import { assumptionBreach, DEFAULT_SERVING_LATENESS_DAYS } from '../../domain/serving-window.js'
import type { BrokerRecord } from '../ports/broker.port.js'
import type { Logger } from '../ports/logger.port.js'
import type { IngestMetrics } from '../ports/metrics.port.js'
import { retriable } from '../ports/retriable.js'
import type { EngineStats } from './engine-stats.js'

/** ClickHouse's "too many parts": the inserts outran the merges; retried like any outage. */
const TOO_MANY_PARTS = 'CLICKHOUSE_252'

/** The stats, metric and log line of each engine outcome, in one place. */
export class EngineTelemetry {
  private readonly warnedVersions = new Set<string>()

  constructor(
    private readonly stats: EngineStats,
    private readonly metrics: IngestMetrics,
    private readonly logger: Logger,
    private readonly consumer: string,
    private readonly servingLatenessDays = DEFAULT_SERVING_LATENESS_DAYS,
  ) {}

  /**
   * Debug, not info: a line per batch the client hands over (librdkafka: one per 100 records,
   * 2,067 lines per 200,000 records, about 3 % of its main thread in a profile). 'flushed', one
   * per insert, says the progress.
   */
  consumed(records: readonly BrokerRecord[]): void {
    const first = records[0]
    const last = records.at(-1)
    if (!first || !last) return
    this.logger.debug(
      { consumer: this.consumer, topic: first.topic, partition: first.partition, from: first.offset, to: last.offset, size: records.length },
      'consumed',
    )
  }

  duplicate(): void {
    this.stats.duplicatesDropped++
  }

  /** A contract mismatch counts every record but warns once per version; warnings of the handler are logged. */
  noted(context: EventContext, warnings: readonly string[]): void {
    const mismatch = checkContractVersion(context.contractVersion)
    if (mismatch) {
      this.metrics.contractVersionMismatch(this.consumer)
      if (!this.warnedVersions.has(mismatch.actual)) {
        this.warnedVersions.add(mismatch.actual)
        this.logger.warn(
          { consumer: this.consumer, sourceEventId: context.messageId, ...mismatch },
          'contract version mismatch; processing the compatible part (logged once per version)',
        )
      }
    }
    for (const warning of warnings) this.logger.warn({ consumer: this.consumer, sourceEventId: context.messageId }, warning)
  }

  deadLettered(r: BrokerRecord, p: Poison): void {
    this.stats.bump(this.stats.deadLetters, p.reason)
    if (p.reason === 'dimension-gap') {
      this.stats.dimensionGaps++
      this.metrics.dimensionGap(this.consumer)
    }
    this.metrics.deadLettered(this.consumer, p.reason)
    this.logger.error(
      { consumer: this.consumer, reason: p.reason, detail: p.detail, sourceEventId: r.headers['ce_id'], topic: r.topic, partition: r.partition, offset: r.offset },
      'skipped-poison',
    )
  }

  /** Before its dead letter: a gap the dimension consumers' progress never proved (reads failing, or behind for the whole wait). */
  gapUnproven(r: BrokerRecord, propertyObjectId: Guid, maxWaitMs: number): void {
    this.stats.unprovenGaps++
    this.metrics.dimensionGapUnproven?.(this.consumer)
    this.logger.warn(
      { consumer: this.consumer, propertyObjectId, maxWaitMs, sourceEventId: r.headers['ce_id'], topic: r.topic, partition: r.partition, offset: r.offset },
      "dimension-gap not proven: the dimension consumers' progress did not pass the record's window within the maximum wait (lag reads failing or far behind)",
    )
  }

  skipped(reason: string): void {
    this.stats.bump(this.stats.skipped, reason)
    this.metrics.skipped(this.consumer, reason)
  }

  recovered(): void {
    this.stats.recovered++
    this.metrics.recoveredFromParking(this.consumer)
  }

  /**
   * Records of one routed slice parked for a late dimension: one log line for the slice (a cold
   * start parks thousands of records, a line each flooded the log), the ids at debug level.
   */
  parked(parked: readonly { readonly propertyObjectId: Guid; readonly attempt: number }[]): void {
    if (parked.length === 0) return
    this.stats.parked += parked.length
    for (let i = 0; i < parked.length; i++) this.metrics.parked(this.consumer)
    const attempts = parked.map((p) => p.attempt)
    this.logger.info(
      { consumer: this.consumer, records: parked.length, dimensions: new Set(parked.map((p) => p.propertyObjectId)).size, attempts: [Math.min(...attempts), Math.max(...attempts)] },
      'parked for a late dimension',
    )
    this.logger.debug({ consumer: this.consumer, parked }, 'parked records')
  }

  parkingGate(closed: boolean, waiting: number): void {
    this.logger.info({ consumer: this.consumer, waiting }, closed ? 'parking full: retry topic paused' : 'parking has room: retry topic resumed')
  }

  inserted(rows: readonly FactRow[], ingestionTime: Instant, seconds: number): void {
    let maxLag = 0
    // Counted per run of one table (an insert is nearly always one table), not a Map update per row.
    let table = rows[0]?.table
    let count = 0
    for (const row of rows) {
      const lag = Math.max(0, (ingestionTime - eventTimeOf(row)) / 1000)
      this.metrics.ingestLag(this.consumer, lag)
      const breach = assumptionBreach(row, ingestionTime, this.servingLatenessDays)
      if (breach) this.metrics.servingOutOfAssumption?.(this.consumer, breach)
      if (lag > maxLag) maxLag = lag
      if (row.table !== table) {
        if (table !== undefined) this.metrics.rowsIngested(this.consumer, table, count)
        table = row.table
        count = 0
      }
      count++
    }
    if (table !== undefined && count > 0) this.metrics.rowsIngested(this.consumer, table, count)
    this.metrics.insertDuration(this.consumer, seconds)
    this.stats.rowsIngested += rows.length
    this.stats.flushes++
    this.stats.lastLagSeconds = maxLag
    this.logger.info({ consumer: this.consumer, rows: rows.length, insertSeconds: seconds }, 'flushed')
  }

  /** Kafka arrival → durable, per source record of a flushed batch. */
  arrived(lagSeconds: readonly number[]): void {
    for (const s of lagSeconds) this.metrics.arrivalLag(this.consumer, s)
  }

  batch(rows: number): void {
    this.metrics.batchSize(this.consumer, rows)
  }

  /** Logged on every change of the batch size: a catch-up is visible, and its end. */
  batchResized(from: number, to: number, behind: number): void {
    this.logger.info({ consumer: this.consumer, rows: to, behind }, to > from ? 'catching up: larger batches' : 'caught up: default batches')
    this.stats.batchRows = to
  }

  /** Logged at debug: under a catch-up the budget fills and empties many times a minute; the counter shows it. */
  budgetPaused(usedBytes: number, budgetBytes: number): void {
    this.metrics.memoryBudgetPaused?.(this.consumer)
    this.logger.debug({ consumer: this.consumer, usedBytes, budgetBytes }, 'memory budget spent: partitions paused until commits give room')
  }

  sinkFailed(what: string, e: unknown, attempt: number, retryInMs: number | undefined, now: Instant): void {
    const failure = { what, message: e instanceof Error ? e.message : String(e), retriable: retriable(e) }
    this.stats.lastFailure = failure
    if (retryInMs === undefined) {
      this.logger.warn({ consumer: this.consumer, err: String(e), retriable: failure.retriable, attempt }, `refused: ${what}; isolating the rows`)
      return
    }
    this.stats.sinkRetries++
    this.stats.retryingSince ??= now
    this.metrics.sinkRetry(this.consumer)
    if (e instanceof StoreError && e.code === TOO_MANY_PARTS) this.metrics.tooManyParts?.(this.consumer)
    this.logger.error({ consumer: this.consumer, err: String(e), retriable: failure.retriable, attempt, retryInMs }, `failed: ${what}`)
  }

  sinkSettled(): void {
    this.stats.retryingSince = undefined
  }

  committed(now: Instant): void {
    this.stats.lastCommitAt = now
  }

  commitFailed(e: unknown): void {
    // Harmless: the effects are durable; the next flush commits further, or the records come again.
    this.logger.warn({ consumer: this.consumer, err: String(e) }, 'offset commit failed')
  }

  stepFailed(e: unknown): void {
    this.logger.error({ consumer: this.consumer, err: String(e) }, 'engine step failed')
  }
}
