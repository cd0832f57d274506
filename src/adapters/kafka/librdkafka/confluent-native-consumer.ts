import type {
  BrokerConsumer, BrokerRecord, ConsumerCallbacks, OffsetCommit, TopicPartition,
} from '../../../application/ports/broker.port.js'
import { Assignment } from '../shared/assignment.js'
import { nativeClient, type NativeClient } from './confluent-native-client.js'
import { NativePauses } from './confluent-native-pauses.js'
import { NativeFetcher } from './confluent-native-fetcher.js'
import { batchesOf } from './confluent-native-records.js'
import { brokerError } from '../shared/kafka-errors.js'
import { DEFAULT_JOIN_TIMEOUT_MS, type KafkaOptions } from '../shared/kafka-options.js'

// librdkafka's rebalance event codes (RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS / __REVOKE_PARTITIONS).
export const ASSIGN = -175
const REVOKE = -174

/**
 * One group member over librdkafka's own consumer API: `consume(n)` takes what is queued, split
 * into per-partition batches in offset order, each handed to the engine and awaited before the
 * next (so no partition gets a second batch while one is held); one further `consume` runs
 * meanwhile. Revocations run through `rebalance_cb`: the engine lets go before we unassign, and
 * what was fetched before is dropped (the next owner reads it from the last commit). Offsets are
 * only committed explicitly.
 */
export class ConfluentNativeConsumer implements BrokerConsumer {
  private readonly assignment = new Assignment()
  private readonly pauses = new NativePauses(this.assignment)
  private client: NativeClient | undefined
  private callbacks: ConsumerCallbacks | undefined
  private stopping = false
  private loopDone: Promise<void> = Promise.resolve()
  private inFlight: Promise<void> = Promise.resolve()
  private rebalancing: Promise<void> = Promise.resolve()
  private fetcher: NativeFetcher | undefined
  /** Counts revocations: a consume result from an earlier generation is stale. */
  private generation = 0
  private onFatal: (e: unknown) => void = () => undefined
  /** The client's connect while it runs: a stop meanwhile disconnects it once connected. */
  private connecting: Promise<void> = Promise.resolve()
  /** Resolves at stop(): a run() still waiting for its first assignment ends then. */
  private stopRequested!: () => void
  private readonly stopped = new Promise<void>((r) => (this.stopRequested = r))

  constructor(private readonly options: KafkaOptions, private readonly groupId: string) {}

  async run(topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void> {
    this.callbacks = callbacks
    this.pauses.topics = [...topics]
    const fatal = new Promise<never>((_, reject) => {
      this.onFatal = (e) => reject(brokerError('consumer group join', e))
    })
    fatal.catch(() => undefined)
    const client = nativeClient(this.options, this.groupId, {
      rebalance: (code, partitions) => this.rebalanced(code, partitions),
      nonEmpty: () => this.fetcher?.signal(),
      error: (e) => this.clientError(e, e.isFatal === true),
    })
    this.client = client
    this.fetcher = new NativeFetcher(client, (e) => this.clientError(e, e.isFatal === true))
    try {
      const connected = client.connect(topics[0] ?? '')
      this.connecting = connected.then(() => undefined, () => undefined)
      await connected
      // stopped meanwhile: not joining a group nobody would leave
      if (this.stopping) return
      client.subscribe([...topics])
    } catch (e) {
      throw brokerError('consumer start', e)
    }
    // librdkafka joins on its own threads but reports the assignment only from within consume().
    this.loopDone = this.loop(client, this.fetcher)
    await Promise.race([this.assignment.firstJoin(this.options.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS), fatal, this.stopped])
    this.onFatal = () => undefined
  }

  async commit(offsets: readonly OffsetCommit[]): Promise<void> {
    const client = this.client
    if (!client) throw brokerError('commit', new Error('consumer is not running'))
    // A partition revoked meanwhile is no longer ours: its next owner re-reads from the last commit.
    const owned = this.assignment.ownedOnly(offsets)
    if (owned.length === 0) return
    try {
      await client.commit(owned.map((o) => ({ topic: o.topic, partition: o.partition, offset: Number(o.offset) })))
    } catch (e) {
      throw brokerError('commit', e)
    }
  }

  pause(): void {
    this.pauses.pause(this.client)
  }

  resume(): void {
    this.pauses.resume(this.client)
  }

  pauseTopic(topic: string): void {
    this.pauses.pauseTopic(this.client, topic)
  }

  resumeTopic(topic: string): void {
    this.pauses.resumeTopic(this.client, topic)
  }

  async stop(): Promise<void> {
    this.stopping = true
    this.stopRequested()
    this.fetcher?.signal()
    await this.inFlight
    await this.loopDone
    await this.connecting
    // librdkafka's close revokes through rebalance_cb (the engine lets go) before it leaves.
    await this.client?.disconnect().catch(() => undefined)
  }

  private async loop(client: NativeClient, fetcher: NativeFetcher): Promise<void> {
    let next = fetcher.fetch(this.generation)
    while (!this.stopping) {
      const { generation, messages } = await next
      await this.rebalancing
      if (messages.length === 0 && !this.stopping) await fetcher.idle()
      // The next consume runs on a worker thread while the engine takes these.
      next = this.stopping ? Promise.resolve({ generation, messages: [] }) : fetcher.fetch(this.generation)
      for (const batch of batchesOf(messages)) {
        // Revoked since it was fetched: its next owner reads it from the last commit.
        const first = batch[0] as BrokerRecord
        if (this.stopping || generation !== this.generation || !this.assignment.owns(first)) continue
        if (await this.deliver(batch)) continue
        // The engine never throws out of onBatch by design; if it did, read the batch again.
        const fetched = await next
        next = Promise.resolve({ generation, messages: fetched.messages.filter((m) => m.topic !== first.topic || m.partition !== first.partition) })
        await client.seek({ topic: first.topic, partition: first.partition, offset: Number(first.offset) })
          .catch((err: unknown) => this.clientError(brokerError('seek', err), false))
      }
    }
    await next
  }

  /** False when the engine threw (it never does by design). */
  private async deliver(batch: BrokerRecord[]): Promise<boolean> {
    const callbacks = this.callbacks
    if (!callbacks) return true
    const delivered = callbacks.onBatch(batch)
    this.inFlight = delivered.catch(() => undefined)
    try {
      await delivered
      return true
    } catch (e) {
      this.clientError(brokerError('batch handler', e), false)
      return false
    }
  }

  private rebalanced(code: number, partitions: TopicPartition[]): void {
    const client = this.client
    if (!client) return
    if (code === ASSIGN) {
      this.assignment.add(partitions)
      this.safely(() => client.assign(partitions))
      this.pauses.reapply(client, partitions)
    } else if (code === REVOKE) {
      const lost = this.assignment.remove(partitions)
      this.generation++
      // Awaited by librdkafka (it waits for unassign), and by the consume loop.
      this.rebalancing = this.rebalancing.then(async () => {
        if (lost.length > 0) await this.callbacks?.onRevoked(lost).catch((e: unknown) => this.clientError(brokerError('revocation', e), false))
        this.safely(() => client.unassign())
      })
    } else {
      this.clientError({ message: `rebalance error ${code}` }, false)
    }
  }

  private clientError(e: { message: string; code?: number }, fatal: boolean): void {
    this.options.logger?.[fatal ? 'error' : 'warn']({ client: 'librdkafka', group: this.groupId, code: String(e.code ?? '') }, e.message)
    if (fatal) this.onFatal(e)
  }

  // assign/unassign after the client closed have nothing to act on.
  private safely(action: () => unknown): void {
    try {
      action()
    } catch (e) {
      if (!this.stopping) this.clientError(e as { message: string }, false)
    }
  }
}
