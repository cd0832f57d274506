import type { BrokerRecord, OffsetCommit, TopicPartition } from '../ports/broker.port.js'

interface PartitionState {
  readonly pending: Set<bigint>
  highestDone: bigint
  committed: bigint
}

const keyOf = (tp: TopicPartition): string => `${tp.topic}\u0000${tp.partition}`

/**
 * Tracks, per partition, which received offsets are still in flight, so that a commit never
 * passes an offset whose effects are not durable yet — also when records finish out of order
 * (a parked record waiting for its due time while later ones are done).
 */
export class OffsetTracker {
  private readonly partitions = new Map<string, PartitionState & TopicPartition>()

  received(r: BrokerRecord): void {
    const state = this.stateOf(r)
    state.pending.add(BigInt(r.offset))
  }

  done(r: BrokerRecord): void {
    const state = this.partitions.get(keyOf(r))
    if (!state) return // revoked meanwhile: its offsets are no longer ours to commit
    const offset = BigInt(r.offset)
    state.pending.delete(offset)
    if (offset > state.highestDone) state.highestDone = offset
  }

  /** Commits that move a partition forward: up to its lowest in-flight offset, else past the highest done. */
  committable(): OffsetCommit[] {
    const commits: OffsetCommit[] = []
    for (const state of this.partitions.values()) {
      let next = state.highestDone + 1n
      for (const p of state.pending) if (p < next) next = p
      if (next > state.committed) {
        commits.push({ topic: state.topic, partition: state.partition, offset: next.toString() })
      }
    }
    return commits
  }

  markCommitted(commits: readonly OffsetCommit[]): void {
    for (const c of commits) {
      const state = this.partitions.get(keyOf(c))
      if (state) state.committed = BigInt(c.offset)
    }
  }

  revoke(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.partitions.delete(keyOf(tp))
  }

  isTracked(tp: TopicPartition): boolean {
    return this.partitions.has(keyOf(tp))
  }

  private stateOf(r: BrokerRecord): PartitionState {
    const key = keyOf(r)
    let state = this.partitions.get(key)
    if (!state) {
      const start = BigInt(r.offset)
      state = { topic: r.topic, partition: r.partition, pending: new Set(), highestDone: start - 1n, committed: start }
      this.partitions.set(key, state)
    }
    return state
  }
}
