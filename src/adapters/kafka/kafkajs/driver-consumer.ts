import type {
  BrokerConsumer, ConsumerCallbacks, OffsetCommit, TopicPartition,
} from '../../../application/ports/broker.port.js'
import { Assignment } from '../shared/assignment.js'
import { brokerError } from '../shared/kafka-errors.js'
import { toBrokerRecord, type DriverMessage } from '../shared/kafka-records.js'
import { withDeadline } from './with-deadline.js'

/** The `eachBatch` payload kafkajs passes (the parts we use). */
export interface DriverBatchPayload {
  readonly batch: { readonly topic: string; readonly partition: number; readonly messages: readonly DriverMessage[] }
  resolveOffset(offset: string): void
  heartbeat(): Promise<void>
  isRunning(): boolean
  isStale(): boolean
}

/** The kafkajs consumer surface the adapter uses (librdkafka has its own: confluent-native-consumer.ts). */
export interface DriverConsumer {
  connect(): Promise<void>
  subscribe(s: { topics: string[] }): Promise<void>
  run(c: { eachBatchAutoResolve: boolean; eachBatch: (p: DriverBatchPayload) => Promise<void> }): Promise<void>
  commitOffsets(offsets: { topic: string; partition: number; offset: string }[]): Promise<void>
  pause(topics: { topic: string; partitions?: number[] }[]): unknown
  resume(topics: { topic: string; partitions?: number[] }[]): unknown
  disconnect(): Promise<void>
}

/** What a client-specific factory gets: where to report assignments and revocations. */
export interface RebalanceHooks {
  readonly assignment: Assignment
  /** Called by the client glue when partitions are taken away; resolves once the engine let go. */
  revoked(partitions: readonly TopicPartition[]): Promise<void>
  /** Called after a (re)assignment, e.g. to re-apply a pause to new partitions. */
  assigned(): void
  /**
   * The client gave up for good (e.g. kafkajs CRASH without restart): `run` rejects if still
   * joining; after the first join the consumer is built again and rejoins.
   */
  fatal(e: unknown): void
}

export interface DriverConsumerOptions {
  /** How often to heartbeat while the engine holds a batch (kafkajs only heartbeats when asked). */
  readonly heartbeatEveryMs: number
  /** `run` resolves at the first assignment or after this long. */
  readonly joinTimeoutMs: number
  /** First wait before rejoining after the client gave up (doubling up to 30 s); default 1 s. */
  readonly rejoinBackoffMs?: number
  /** stop() waits at most this long to leave the group and disconnect; default 10 s (DEFAULT_LEAVE_TIMEOUT_MS). */
  readonly leaveTimeoutMs?: number
}

/**
 * kafkajs's disconnect on a silent broker (a half-open connection) waited more than 150 s: its
 * LeaveGroup and fetch requests time out one after another, with retries. Past this the member is
 * left behind (the broker drops it after the session timeout): nothing uncommitted is lost, the
 * next member reads from the last commit.
 */
export const DEFAULT_LEAVE_TIMEOUT_MS = 10_000

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/**
 * One group member over kafkajs: per-partition batches in offset order, offsets
 * resolved (never committed) only after the engine accepted a batch, explicit commits filtered to
 * the partitions we still own, and a keep-alive heartbeat while the engine holds a batch.
 */
export class DriverBackedConsumer implements BrokerConsumer {
  private readonly assignment = new Assignment()
  private driver: DriverConsumer | undefined
  private callbacks: ConsumerCallbacks | undefined
  private topics: string[] = []
  private paused = false
  private readonly pausedTopics = new Set<string>()
  private stopping = false
  private inFlight: Promise<void> = Promise.resolve()
  private onFatal: (e: unknown) => void = () => undefined
  private rejoining: Promise<void> | undefined
  /** A client being connected and joined (kafkajs's `run` resolves once it joined). */
  private starting: Promise<void> | undefined
  /** Times the client gave up after joining and the consumer was built again. */
  rejoins = 0

  constructor(
    private readonly create: (hooks: RebalanceHooks) => DriverConsumer,
    private readonly options: DriverConsumerOptions,
  ) {}

  async run(topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void> {
    this.topics = [...topics]
    this.callbacks = callbacks
    const fatal = new Promise<never>((_, reject) => {
      this.onFatal = (e) => reject(brokerError('consumer group join', e))
    })
    fatal.catch(() => undefined)
    try {
      await this.startDriver()
    } catch (e) {
      throw brokerError('consumer start', e)
    }
    if (this.stopping) return
    await Promise.race([this.assignment.firstJoin(this.options.joinTimeoutMs), fatal])
    // From now on a client that gives up (kafkajs does after a broker outage: "Failed to find
    // group coordinator") is built again, or the group would silently lose this member for good.
    this.onFatal = () => this.rejoin()
  }

  private async startDriver(): Promise<void> {
    const driver = this.create({
      assignment: this.assignment,
      revoked: (partitions) => this.revoked(partitions),
      assigned: () => this.reapplyPause(),
      fatal: (e) => this.onFatal(e),
    })
    this.driver = driver
    const start = (async () => {
      await driver.connect()
      if (this.stopping) return
      await driver.subscribe({ topics: this.topics })
      if (this.stopping) return
      await driver.run({ eachBatchAutoResolve: false, eachBatch: (p) => this.eachBatch(p) })
    })()
    this.starting = start.then(() => undefined, () => undefined)
    await start
  }

  private rejoin(): void {
    if (this.stopping || this.rejoining) return
    this.rejoining = (async () => {
      const initial = this.options.rejoinBackoffMs ?? 1000
      for (let attempt = 1; !this.stopping; attempt++) {
        const old = this.driver
        this.driver = undefined
        await old?.disconnect().catch(() => undefined)
        await sleep(Math.min(30_000, initial * 2 ** Math.min(attempt - 1, 10)))
        if (this.stopping) return
        try {
          await this.startDriver()
          this.rejoins++
          return
        } catch {
          // the broker is still away: try again
        }
      }
    })().finally(() => {
      this.rejoining = undefined
    })
  }

  async commit(offsets: readonly OffsetCommit[]): Promise<void> {
    const driver = this.driver
    if (!driver) throw brokerError('commit', new Error('consumer is not running'))
    // A partition revoked meanwhile is no longer ours: its next owner re-reads from the last commit.
    const owned = this.assignment.ownedOnly(offsets)
    if (owned.length === 0) return
    try {
      await driver.commitOffsets(owned.map((o) => ({ topic: o.topic, partition: o.partition, offset: o.offset })))
    } catch (e) {
      throw brokerError('commit', e)
    }
  }

  pause(): void {
    this.paused = true
    this.safely(() => this.driver?.pause(this.topics.map((topic) => ({ topic }))))
  }

  resume(): void {
    this.paused = false
    const topics = this.topics.filter((t) => !this.pausedTopics.has(t))
    this.safely(() => this.driver?.resume(topics.map((topic) => ({ topic }))))
  }

  pauseTopic(topic: string): void {
    this.pausedTopics.add(topic)
    this.safely(() => this.driver?.pause([{ topic }]))
  }

  resumeTopic(topic: string): void {
    this.pausedTopics.delete(topic)
    if (!this.paused) this.safely(() => this.driver?.resume([{ topic }]))
  }

  async stop(): Promise<void> {
    this.stopping = true
    await this.inFlight
    // Runs on past the deadline: a client still joining is disconnected once it has joined.
    const leave = async () => {
      await this.rejoining
      // kafkajs's stop while it joins does nothing and drops its fetch loop, which then runs on
      // unstoppable once joined (a member that stays in the group, sockets that keep the process up)
      await this.starting
      const driver = this.driver
      this.driver = undefined
      if (driver) await driver.disconnect()
    }
    await withDeadline(leave(), this.options.leaveTimeoutMs ?? DEFAULT_LEAVE_TIMEOUT_MS, 'kafkajs consumer disconnect').catch(() => undefined)
  }

  private async eachBatch(payload: DriverBatchPayload): Promise<void> {
    const { topic, partition, messages } = payload.batch
    const last = messages.at(-1)
    const callbacks = this.callbacks
    // Leaving: not resolving means the next member reads these from the last commit.
    if (!last || !callbacks || this.stopping) return
    const records = messages.map((m) => toBrokerRecord(topic, partition, m))
    const delivered = callbacks.onBatch(records)
    this.inFlight = delivered.catch(() => undefined)
    await this.keepAlive(delivered, payload)
    try {
      await delivered
    } catch (e) {
      // The engine never throws out of onBatch by design; if it did, re-read the batch.
      throw brokerError('batch handler', e)
    }
    // The engine has the records (it tracks and commits them itself): fetch on after them.
    payload.resolveOffset(last.offset)
  }

  /** Heartbeats while the engine holds the batch, so a slow insert does not cost the membership. */
  private async keepAlive(work: Promise<void>, payload: DriverBatchPayload): Promise<void> {
    let done = false
    let wake: (() => void) | undefined
    const settled = work.then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      done = true
      wake?.()
    })
    while (!done) {
      // One timer per wait, cleared as soon as the engine is done (most batches: before it fires).
      let timer: NodeJS.Timeout | undefined
      await new Promise<void>((resolve) => {
        wake = resolve
        timer = setTimeout(resolve, this.options.heartbeatEveryMs)
      })
      clearTimeout(timer)
      if (done) break
      // A failed heartbeat (a rebalance in progress) is handled by the client after this batch.
      await payload.heartbeat().catch(() => undefined)
    }
    await settled
  }

  private async revoked(partitions: readonly TopicPartition[]): Promise<void> {
    if (partitions.length === 0 || !this.callbacks) return
    await this.callbacks.onRevoked(partitions)
  }

  private reapplyPause(): void {
    if (!this.paused && this.pausedTopics.size === 0) return
    setImmediate(() => {
      const topics = this.paused ? this.topics : [...this.pausedTopics]
      if (topics.length > 0) this.safely(() => this.driver?.pause(topics.map((topic) => ({ topic }))))
    })
  }

  // pause/resume before the client joined (or after it left) have nothing to act on.
  private safely(action: () => unknown): void {
    try {
      action()
    } catch {
      /* not running yet or any more */
    }
  }
}

