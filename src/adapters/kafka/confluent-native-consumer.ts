import type {
  BrokerConsumer, BrokerRecord, ConsumerCallbacks, OffsetCommit, TopicPartition,
} from '../../application/ports/broker.port.js'
import { Assignment } from './assignment.js'
import { nativeClient, type NativeClient } from './confluent-native-client.js'
import { NativePauses } from './confluent-native-pauses.js'
import { batchesOf, type NativeMessage } from './confluent-native-records.js'
import { CONFLUENT_CONSUME_MAX } from './fetch-settings.js'
import { brokerError } from './kafka-errors.js'
import { DEFAULT_JOIN_TIMEOUT_MS, type KafkaOptions } from './kafka-options.js'

// librdkafka's rebalance event codes (RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS / __REVOKE_PARTITIONS).
const ASSIGN = -175
const REVOKE = -174
/** An idle consumer is woken by librdkafka when its queue fills; this is only the fallback. */
const IDLE_POLL_MS = 500

/**
 * One group member over librdkafka's own consumer API: `consume(n)` takes what is queued, split
 * into per-partition batches in offset order, each handed to the engine and awaited before the
 * next `consume` (so no partition gets a second batch while one is held, and librdkafka's
 * position never runs ahead of what was handed over). Revocations run through `rebalance_cb`:
 * the engine lets go before we unassign. Offsets are only committed explicitly.
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
  private signalled = false
  private wake: (() => void) | undefined
  private onFatal: (e: unknown) => void = () => undefined

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
      nonEmpty: () => this.signal(),
      error: (e) => this.clientError(e, e.isFatal === true),
    })
    this.client = client
    try {
      await client.connect()
      client.subscribe([...topics])
    } catch (e) {
      throw brokerError('consumer start', e)
    }
    // librdkafka joins on its own threads but reports the assignment only from within consume().
    this.loopDone = this.loop(client)
    await Promise.race([this.assignment.firstJoin(this.options.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS), fatal])
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
    this.wake?.()
    await this.inFlight
    await this.loopDone
    // librdkafka's close revokes through rebalance_cb (the engine lets go) before it leaves.
    await this.client?.disconnect().catch(() => undefined)
  }

  private async loop(client: NativeClient): Promise<void> {
    while (!this.stopping) {
      this.signalled = false
      let messages: NativeMessage[] = []
      try {
        messages = await client.consume(CONFLUENT_CONSUME_MAX)
      } catch (e) {
        this.clientError(e as { message: string }, (e as { isFatal?: boolean }).isFatal === true)
      }
      await this.rebalancing
      if (messages.length === 0) await this.idle()
      for (const batch of batchesOf(messages)) {
        if (this.stopping) return
        // Revoked since it was fetched: its next owner reads it from the last commit.
        if (this.assignment.owns(batch[0] as BrokerRecord)) await this.deliver(client, batch)
      }
    }
  }

  private async deliver(client: NativeClient, batch: BrokerRecord[]): Promise<void> {
    const callbacks = this.callbacks
    if (!callbacks) return
    const delivered = callbacks.onBatch(batch)
    this.inFlight = delivered.catch(() => undefined)
    try {
      await delivered
    } catch (e) {
      // The engine never throws out of onBatch by design; if it did, read the batch again.
      this.clientError(brokerError('batch handler', e), false)
      const first = batch[0] as BrokerRecord
      await client.seek({ topic: first.topic, partition: first.partition, offset: Number(first.offset) })
        .catch((err: unknown) => this.clientError(brokerError('seek', err), false))
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
      // Awaited by librdkafka (it waits for unassign), and by the consume loop.
      this.rebalancing = this.rebalancing.then(async () => {
        if (lost.length > 0) await this.callbacks?.onRevoked(lost).catch((e: unknown) => this.clientError(brokerError('revocation', e), false))
        this.safely(() => client.unassign())
      })
    } else {
      this.clientError({ message: `rebalance error ${code}` }, false)
    }
  }

  private idle(): Promise<void> {
    if (this.signalled || this.stopping) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
      const timer = setTimeout(done, IDLE_POLL_MS)
      this.wake = done
    })
  }

  private signal(): void {
    this.signalled = true
    this.wake?.()
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
