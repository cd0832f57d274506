import type { OffsetCommit, TopicPartition } from '../../../application/ports/broker.port.js'

const keyOf = (tp: TopicPartition): string => `${tp.topic}\u0000${tp.partition}`

/**
 * The partitions this member owns right now. Updated synchronously from the clients' rebalance
 * notifications, so a commit issued after a revocation never names a partition we lost.
 */
export class Assignment {
  private owned = new Map<string, TopicPartition>()
  private joinedOnce = false
  private readonly waiters: (() => void)[] = []

  /** Replaces the whole assignment (eager protocol, kafkajs GROUP_JOIN); returns what was lost. */
  replace(partitions: readonly TopicPartition[]): TopicPartition[] {
    const next = new Map(partitions.map((tp) => [keyOf(tp), { topic: tp.topic, partition: tp.partition }]))
    const revoked = [...this.owned].filter(([k]) => !next.has(k)).map(([, tp]) => tp)
    this.owned = next
    this.joined()
    return revoked
  }

  add(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.owned.set(keyOf(tp), { topic: tp.topic, partition: tp.partition })
    this.joined()
  }

  remove(partitions: readonly TopicPartition[]): TopicPartition[] {
    const removed = partitions.filter((tp) => this.owned.delete(keyOf(tp)))
    return removed.map((tp) => ({ topic: tp.topic, partition: tp.partition }))
  }

  /** Everything: used when the member leaves or is fenced. */
  clear(): TopicPartition[] {
    const all = [...this.owned.values()]
    this.owned.clear()
    return all
  }

  owns(tp: TopicPartition): boolean {
    return this.owned.has(keyOf(tp))
  }

  current(): TopicPartition[] {
    return [...this.owned.values()]
  }

  ownedOnly(commits: readonly OffsetCommit[]): OffsetCommit[] {
    return commits.filter((c) => this.owns(c))
  }

  /** Resolves at the first assignment (possibly empty) or after `timeoutMs`. */
  firstJoin(timeoutMs: number): Promise<boolean> {
    if (this.joinedOnce) return Promise.resolve(true)
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs)
      this.waiters.push(() => {
        clearTimeout(timer)
        resolve(true)
      })
    })
  }

  private joined(): void {
    this.joinedOnce = true
    for (const w of this.waiters.splice(0)) w()
  }
}
