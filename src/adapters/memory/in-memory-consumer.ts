import type { BrokerConsumer, BrokerRecord, ConsumerCallbacks, OffsetCommit, TopicPartition } from '../../application/ports/broker.port.js'
import type { GroupMember, InMemoryLog, StoredRecord } from './in-memory-log.js'

const keyOf = (tp: TopicPartition) => `${tp.topic}/${tp.partition}`

/** Each stored record as a client delivers it (offsets as decimal text). */
const asDelivered = (records: readonly StoredRecord[], tp: TopicPartition): BrokerRecord[] => {
  const out = new Array<BrokerRecord>(records.length)
  for (let i = 0; i < records.length; i++) {
    const r = records[i] as StoredRecord
    out[i] = { topic: tp.topic, partition: tp.partition, offset: String(r.offset), key: r.key, value: r.value, headers: r.headers, timestamp: r.timestamp }
  }
  return out
}

/** One member of a consumer group over an InMemoryLog; delivers each partition's batches in order. */
export class InMemoryConsumer implements BrokerConsumer, GroupMember {
  topics: readonly string[] = []
  private assigned: TopicPartition[] = []
  private readonly positions = new Map<string, number>()
  private callbacks: ConsumerCallbacks | undefined
  private running = false
  private paused = false
  private readonly pausedTopics = new Set<string>()
  private loop: Promise<void> = Promise.resolve()

  constructor(
    private readonly log: InMemoryLog,
    readonly groupId: string,
    private readonly pollSize: number,
  ) {}

  async run(topics: readonly string[], callbacks: ConsumerCallbacks): Promise<void> {
    this.topics = topics
    this.callbacks = callbacks
    this.running = true
    await this.log.join(this.groupId, this)
    this.loop = this.poll()
  }

  async assign(partitions: readonly TopicPartition[]): Promise<void> {
    const kept = new Set(partitions.map(keyOf))
    const revoked = this.assigned.filter((tp) => !kept.has(keyOf(tp)))
    if (revoked.length > 0) await this.callbacks?.onRevoked(revoked)
    this.assigned = [...partitions]
    this.positions.clear()
    for (const tp of partitions) this.positions.set(keyOf(tp), this.log.committedOffset(this.groupId, tp))
  }

  async commit(offsets: readonly OffsetCommit[]): Promise<void> {
    const owned = new Set(this.assigned.map(keyOf))
    const foreign = offsets.filter((o) => !owned.has(keyOf(o)))
    if (foreign.length > 0) throw new Error(`not assigned to this member: ${foreign.map(keyOf).join(', ')}`)
    this.log.commit(this.groupId, offsets)
  }

  pause(): void {
    this.paused = true
  }

  resume(): void {
    this.paused = false
  }

  pauseTopic(topic: string): void {
    this.pausedTopics.add(topic)
  }

  resumeTopic(topic: string): void {
    this.pausedTopics.delete(topic)
  }

  /** Graceful: the batch in flight finishes, then the member leaves the group. */
  async stop(): Promise<void> {
    this.running = false
    await this.loop
    await this.log.leave(this.groupId, this)
  }

  /** A SIGKILL: nothing more is delivered or committed by this member; the group moves on. */
  async crash(): Promise<void> {
    this.running = false
    this.callbacks = undefined
    this.commit = async () => {
      throw new Error('member is dead')
    }
    await this.log.leave(this.groupId, this)
  }

  private async poll(): Promise<void> {
    while (this.running) {
      let delivered = 0
      for (const tp of [...this.assigned]) {
        if (!this.running || this.paused) break
        if (this.pausedTopics.has(tp.topic)) continue
        const from = this.positions.get(keyOf(tp))
        if (from === undefined) continue
        const records = this.log.read(tp, from, this.pollSize)
        if (records.length === 0) continue
        delivered += records.length
        await this.callbacks?.onBatch(asDelivered(records, tp))
        if (this.positions.get(keyOf(tp)) === from) this.positions.set(keyOf(tp), from + records.length)
      }
      // More may be waiting: fetch again at once (as a client with data in its fetch queue), else poll in 2 ms.
      await new Promise((resolve) => (delivered === 0 ? setTimeout(resolve, 2) : setImmediate(resolve)))
    }
  }
}
