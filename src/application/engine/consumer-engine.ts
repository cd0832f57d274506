import type { EventHandler } from '../handlers/event-handler.js'
import type { BrokerRecord, TopicPartition } from '../ports/broker.port.js'
import { arrivalLagsOf } from './arrival-lag.js'
import { BatchWriter } from './batch-writer.js'
import { CATCH_UP_AFTER_BATCHES, DEFAULT_FLUSHES_IN_FLIGHT, DEFAULT_PARKING_MAX_IN_MEMORY, type EngineTopics } from './engine-config.js'
import type { EngineDeps } from './engine-deps.js'
import { EngineStats } from './engine-stats.js'
import { EngineTelemetry } from './engine-telemetry.js'
import { batchDue, delayToNextTick, tickPeriodMs } from './flush-due.js'
import { recordBytes, unlimitedBudget, type MemoryBudget } from './memory-budget.js'
import { OffsetTracker } from './offset-tracker.js'
import { OrderedFlushes } from './ordered-flushes.js'
import { ParkingLot } from './parking-lot.js'
import { PendingBatch } from './pending-batch.js'
import { RecordRouter } from './record-router.js'
import { Abandoned, StopAwareRetry } from './retry-loop.js'
import { settleWithin } from '../settle-within.js'

export type { EngineDeps } from './engine-deps.js'

/**
 * A silent broker (a half-open connection) answers no commit; kafkajs retries one for minutes.
 * While stopping, the offsets are left uncommitted past this: their records are read again after
 * the restart and collapse (spec §10), and the exit is not held.
 */
export const STOP_COMMIT_WAIT_MS = 10_000

/** Where the next slice of `records` from `start` ends: at most `rows` records and `bytes` of values, at least one record. */
const sliceEnd = (records: readonly BrokerRecord[], start: number, rows: number, bytes: number): number => {
  const last = Math.min(records.length, start + Math.max(1, rows))
  if (bytes === Number.POSITIVE_INFINITY) return last
  let end = start + 1
  let size = records[start]?.value?.length ?? 0
  while (end < last && size + (records[end]?.value?.length ?? 0) <= bytes) size += records[end++]?.value?.length ?? 0
  return end
}

/**
 * The one consumer engine every handler plugs into: lane → accept (route each record into the
 * pending batch) → flush (seal it; BatchWriter makes it durable) → commit, strictly in batch
 * order. All work runs on one serial lane, so a batch, a timer tick and a revocation never
 * interleave; only the writes of sealed batches overlap (ordered-flushes). The parts:
 * RecordRouter (per record), BatchWriter (insert, isolate refused rows, publish), StopAwareRetry,
 * ParkingLot (parked copies not yet due), OffsetTracker (what may be committed), EngineTelemetry.
 */
export class ConsumerEngine {
  readonly stats = new EngineStats()
  private readonly telemetry: EngineTelemetry
  private readonly retry: StopAwareRetry
  private readonly parking: ParkingLot
  private readonly router: RecordRouter
  private readonly writer: BatchWriter
  private readonly flushes: OrderedFlushes
  private readonly tracker = new OffsetTracker()
  /** Sink operations retrying now: the consumer stays paused until the last one settles. */
  private failing = 0
  /** abort(): batches still inserting must not commit, as in a killed process. */
  private aborted = false
  private batch = new PendingBatch()
  private readonly budget: MemoryBudget
  /** Why the consumer is paused now: it fetches again once no reason is left. */
  private readonly pausedFor = new Set<'store' | 'budget'>()
  /** Records per batch now: maxBatchRows, more while catching up (resize). */
  private batchRows: number
  private lane: Promise<unknown> = Promise.resolve()
  private timer: NodeJS.Timeout | undefined
  private tickQueued = false
  private halted = false
  /** Commits out now, woken at stop() or abort(): from then on they get the bounded wait of STOP_COMMIT_WAIT_MS. */
  private readonly commitsOut = new Set<() => void>()

  constructor(private readonly deps: EngineDeps) {
    const { consumer, clock, metrics, logger, handler, config, topics } = deps
    const telemetry = (this.telemetry = new EngineTelemetry(this.stats, metrics, logger, handler.name, config.servingLatenessDays))
    this.budget = deps.budget ?? unlimitedBudget()
    this.flushes = new OrderedFlushes(config.flushesInFlight ?? DEFAULT_FLUSHES_IN_FLIGHT)
    this.retry = new StopAwareRetry(config.sinkBackoff, {
      failed: (what, e, attempt, retryInMs) => {
        if (attempt === 1 && retryInMs !== undefined && this.failing++ === 0) this.pause('store')
        telemetry.sinkFailed(what, e, attempt, retryInMs, clock.now())
      },
      settled: () => {
        this.failing = Math.max(0, this.failing - 1)
        if (this.failing === 0) this.resume('store')
        telemetry.sinkSettled()
      },
    }, deps.recovery)
    this.parking = new ParkingLot(config.parking.maxInMemory ?? DEFAULT_PARKING_MAX_IN_MEMORY, {
      close: (waiting) => (consumer.pauseTopic(topics.retry), telemetry.parkingGate(true, waiting)),
      open: (waiting) => (consumer.resumeTopic(topics.retry), telemetry.parkingGate(false, waiting)),
    }, this.budget)
    this.router = new RecordRouter(deps, telemetry, this.retry, this.parking)
    this.writer = new BatchWriter(deps, telemetry, this.retry, this.router)
    this.batchRows = config.maxBatchRows
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
      // A stop abandoning the batch's work owns its outcome (nothing is committed past it): thrown
      // back, it would make kafkajs crash and rejoin the group while this instance stops.
      onBatch: (records) => this.serial(() => this.accept(records)).catch((e) => { if (!(e instanceof Abandoned)) throw e }),
      onRevoked: (partitions) => this.serial(() => this.revoke(partitions)),
    })
    // a stop() while joining: no timer may outlive it
    if (this.halted) return
    this.scheduleTick(tickPeriodMs(config))
  }

  private step: 'running' | 'finishing batches' | 'leaving the group' | 'stopped' = 'running'

  /** Where stop() is: a stop that hangs names its step in the logs (create-dev-stats-ingest). */
  get stopStep(): string {
    return this.step
  }

  /** Flushes what is pending (abandoning it if the store stays down), then leaves the group. */
  async stop(): Promise<void> {
    this.halt()
    this.step = 'finishing batches'
    await this.serial(() => this.flushAll()).catch((e) => this.abandoned(e))
    this.step = 'leaving the group'
    await this.deps.consumer.stop()
    this.step = 'stopped'
  }

  /** Stops at once, as a killed process would: nothing pending is flushed or committed. */
  abort(): void {
    this.aborted = true
    this.halt()
  }

  /** Flush now and wait for every sealed batch (tests and shutdown); the timer flushes when the batch is due (batchDue). */
  drain(): Promise<void> {
    return this.serial(async () => {
      await this.releaseDue()
      await this.flushAll()
    })
  }

  private halt(): void {
    this.halted = true
    for (const wake of this.commitsOut) wake()
    clearTimeout(this.timer)
    this.retry.stop()
    this.telemetry.sinkSettled()
  }

  private serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lane.then(work)
    this.lane = run.catch(() => undefined)
    return run
  }

  private scheduleTick(period: number): void {
    this.timer = setTimeout(() => {
      this.queueTick()
      if (!this.halted) this.scheduleTick(period)
    }, delayToNextTick(performance.now(), period))
  }

  private queueTick(): void {
    if (this.tickQueued) return
    this.tickQueued = true
    void this.serial(async () => {
      this.tickQueued = false
      await this.releaseDue()
      const { openedAt, size } = this.batch
      if (openedAt !== undefined && batchDue(openedAt, performance.now(), size, this.batchRows, this.deps.config)) await this.flush()
    }).catch((e) => this.abandoned(e))
  }

  private abandoned(e: unknown): void {
    if (!(e instanceof Abandoned)) this.telemetry.stepFailed(e)
  }

  private async accept(records: readonly BrokerRecord[]): Promise<void> {
    // Stopping: records not taken are read again by the partition's next owner from the last commit.
    if (this.halted) return
    this.telemetry.consumed(records)
    this.tracker.received(records)
    const { backlog, topics, config } = this.deps
    backlog?.taken(records)
    const maxBytes = config.catchUp?.maxBytes ?? Number.POSITIVE_INFINITY
    for (let i = 0; i < records.length; ) {
      const end = sliceEnd(records, i, this.batchRows - this.batch.size, maxBytes - this.batch.bytes)
      const slice = records.slice(i, end)
      i = end
      this.budgeted(slice)
      await this.router.route(slice, this.batch, this.deps.clock.now())
      if (this.batch.size >= this.batchRows || this.batch.bytes >= maxBytes) await this.flush()
    }
    // The dimension consumers are never paused for the budget: the parked copies holding it wait for
    // their progress, and their memory is bounded by their own batches in flight.
    if (this.budget.full && !this.deps.handler.feedsDimensionLookup && !this.pausedFor.has('budget')) await this.waitForBudget()
  }

  /** The slice's records taken from the budget, on the open batch's account. */
  private budgeted(records: readonly BrokerRecord[]): void {
    let bytes = 0
    for (const r of records) bytes += recordBytes(r)
    this.budget.take(bytes)
    this.batch.budgeted += bytes
  }

  /**
   * The budget is spent: this consumer stops fetching and seals its open batch, whose commit gives
   * its share back; it fetches again once any consumer's commit made room.
   */
  private async waitForBudget(): Promise<void> {
    this.pause('budget')
    this.budget.pauses++
    this.telemetry.budgetPaused(this.budget.used, this.budget.capacityBytes)
    this.budget.whenRoom(() => this.resume('budget'))
    await this.flush()
  }

  private pause(reason: 'store' | 'budget'): void {
    if (this.pausedFor.size === 0) this.deps.consumer.pause()
    this.pausedFor.add(reason)
  }

  private resume(reason: 'store' | 'budget'): void {
    if (!this.pausedFor.delete(reason)) return
    if (this.pausedFor.size === 0) this.deps.consumer.resume()
  }

  private async releaseDue(): Promise<void> {
    const due = this.parking.takeDue(this.deps.clock.now())
    if (due.length === 0) return
    this.budgeted(due)
    await this.router.route(due, this.batch, this.deps.clock.now())
  }

  /** Seals the pending batch and starts writing it; the lane goes on while up to flushesInFlight batches write. */
  private async flush(): Promise<void> {
    const batch = this.batch
    this.batch = new PendingBatch()
    batch.insertRows = this.batchRows
    this.resize()
    const giveBack = () => this.budget.give(batch.budgeted)
    if (batch.size === 0) return giveBack()
    await this.flushes.add(
      this.writer.write(batch),
      () => this.commitAfter(batch).finally(giveBack),
      (e) => (giveBack(), this.abandoned(e)),
    )
  }

  /** The next batch's size: doubled while far behind or the store's parts pile up (up to catchUp.maxRows), else the default. */
  private resize(): void {
    const { config, backlog, pressure } = this.deps
    const behind = backlog?.behind ?? 0
    // growth only within the memory budget: past half of it in use, batches are the default again
    const rows = config.catchUp && this.budget.roomToGrow && (behind > config.maxBatchRows * CATCH_UP_AFTER_BATCHES || pressure?.high === true)
      ? Math.min(Math.max(config.catchUp.maxRows, config.maxBatchRows), this.batchRows * 2)
      : config.maxBatchRows
    if (rows !== this.batchRows) this.telemetry.batchResized(this.batchRows, rows, behind)
    this.batchRows = rows
  }

  /** Flushes and waits until every sealed batch is committed (or abandoned). */
  private async flushAll(): Promise<void> {
    await this.flush()
    await this.flushes.settled()
  }

  /** Runs once this batch and every earlier one are durable: its offsets are done, commit what is contiguous. */
  private async commitAfter(batch: PendingBatch): Promise<void> {
    const { consumer, clock, topics } = this.deps
    if (this.aborted) return
    this.telemetry.arrived(arrivalLagsOf(batch.settled, topics.source, clock.now()))
    this.tracker.done(batch.settled)
    const commits = this.tracker.committable()
    if (commits.length === 0) return
    try {
      const commit = consumer.commit(commits)
      const waitMs = this.deps.stopCommitWaitMs ?? STOP_COMMIT_WAIT_MS
      // bounded from the stop on, also when it was asked for before (a SIGTERM during a commit)
      let wake = () => undefined as void
      const halted = new Promise<void>((resolve) => (wake = resolve))
      if (this.halted) wake()
      else this.commitsOut.add(wake)
      const stopWait = halted.then(() => settleWithin(commit, waitMs, () => { throw new Error(`offset commit not answered within ${waitMs} ms while stopping`) }))
      await Promise.race([commit, stopWait]).finally(() => this.commitsOut.delete(wake))
      this.tracker.markCommitted(commits)
      this.telemetry.committed(clock.now())
    } catch (e) {
      this.telemetry.commitFailed(e)
    }
  }

  /**
   * The open batch is sealed and every batch finishes first: their records' offsets are still ours
   * to commit. An open batch left for later would finish after the partition's state was forgotten
   * and, were the partition given back meanwhile, count its old offsets as done in the new state:
   * past a parked copy forgotten here and not read again yet (revoke-open-batch.test.ts). While
   * stopping, nothing is given back: the open batch is left as stop() leaves it (not committed).
   */
  private async revoke(partitions: readonly TopicPartition[]): Promise<void> {
    if (this.retry.stopped) await this.flushes.settled()
    else await this.flushAll()
    this.tracker.revoke(partitions)
    this.parking.revoke(partitions)
    this.deps.backlog?.revoked(partitions)
  }
}
