import type { OffsetCommit, OutboundRecord, TopicPartition } from '../../application/ports/broker.port.js'

export interface StoredRecord extends OutboundRecord {
  readonly partition: number
  readonly offset: number
  readonly timestamp: number
}

export interface GroupMember {
  readonly topics: readonly string[]
  assign(partitions: readonly TopicPartition[]): Promise<void>
}

/** Topics' partitions and the groups' committed offsets and members. */
export class InMemoryLog {
  private readonly topics = new Map<string, StoredRecord[][]>()
  private readonly committed = new Map<string, number>()
  private readonly members = new Map<string, GroupMember[]>()

  createTopic(name: string, partitions: number): void {
    if (!this.topics.has(name)) this.topics.set(name, Array.from({ length: partitions }, () => []))
  }

  hasTopic(name: string): boolean {
    return this.topics.has(name)
  }

  /** As an operator's `kafka-topics --delete`: records and committed offsets of the topic are gone. */
  deleteTopic(name: string): void {
    this.topics.delete(name)
    for (const key of [...this.committed.keys()]) if (key.split('/').at(-2) === name) this.committed.delete(key)
  }

  /** One produce request: the broker stamps every record alike; a topic's partitions are looked up once per run. */
  appendAll(records: readonly OutboundRecord[], timestamp = Date.now()): void {
    let topic: string | undefined
    let partitions: StoredRecord[][] = []
    for (const r of records) {
      if (r.topic !== topic) {
        topic = r.topic
        partitions = this.partitionsOf(topic)
      }
      this.appendTo(partitions, r, timestamp)
    }
  }

  private partitionsOf(topic: string): StoredRecord[][] {
    if (!this.topics.has(topic)) this.createTopic(topic, 1)
    return this.topics.get(topic) as StoredRecord[][]
  }

  private appendTo(partitions: StoredRecord[][], r: OutboundRecord, timestamp: number): StoredRecord {
    const partition = r.key ? hash(r.key) % partitions.length : Math.floor(Math.random() * partitions.length)
    const log = partitions[partition] as StoredRecord[]
    const stored: StoredRecord = { topic: r.topic, key: r.key, value: r.value, headers: r.headers, partition, offset: log.length, timestamp }
    log.push(stored)
    return stored
  }

  read(tp: TopicPartition, from: number, max: number): readonly StoredRecord[] {
    return this.topics.get(tp.topic)?.[tp.partition]?.slice(from, from + max) ?? []
  }

  all(topic: string): readonly StoredRecord[] {
    return (this.topics.get(topic) ?? []).flat()
  }

  /** The next offset of each partition of a topic (empty for an unknown topic). */
  endOffsets(topic: string): number[] {
    return (this.topics.get(topic) ?? []).map((log) => log.length)
  }

  hasCommitted(groupId: string, tp: TopicPartition): boolean {
    return this.committed.has(`${groupId}/${tp.topic}/${tp.partition}`)
  }

  committedOffset(groupId: string, tp: TopicPartition): number {
    return this.committed.get(`${groupId}/${tp.topic}/${tp.partition}`) ?? 0
  }

  commit(groupId: string, offsets: readonly OffsetCommit[]): void {
    for (const o of offsets) this.committed.set(`${groupId}/${o.topic}/${o.partition}`, Number(o.offset))
  }

  memberCount(groupId: string): number {
    return this.members.get(groupId)?.length ?? 0
  }

  async join(groupId: string, member: GroupMember): Promise<void> {
    this.members.set(groupId, [...(this.members.get(groupId) ?? []), member])
    await this.rebalance(groupId)
  }

  async leave(groupId: string, member: GroupMember): Promise<void> {
    this.members.set(groupId, (this.members.get(groupId) ?? []).filter((m) => m !== member))
    await this.rebalance(groupId)
  }

  /** Round-robin assignment of every subscribed partition over the group's members. */
  private async rebalance(groupId: string): Promise<void> {
    const members = this.members.get(groupId) ?? []
    const topics = [...new Set(members.flatMap((m) => m.topics))]
    for (const t of topics) this.createTopic(t, 1)
    const partitions = topics.flatMap((topic) => (this.topics.get(topic) ?? []).map((_, partition) => ({ topic, partition })))
    await Promise.all(
      members.map((m, i) =>
        m.assign(partitions.filter((p, j) => j % members.length === i && m.topics.includes(p.topic))),
      ),
    )
  }
}

const hash = (key: Uint8Array): number => {
  let h = 0
  for (let i = 0; i < key.length; i++) h = (Math.imul(h, 31) + (key[i] as number)) >>> 0
  return h
}
