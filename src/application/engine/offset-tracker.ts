import type { BrokerRecord, OffsetCommit, TopicPartition } from '../ports/broker.port.js'

/** An int64 offset: a number while exact (every offset a broker will ever reach), else a bigint. */
type Offset = number | bigint

const offsetOf = (text: string): Offset => {
  const n = Number(text)
  return Number.isSafeInteger(n) ? n : BigInt(text)
}

const next = (o: Offset): Offset => (typeof o === 'bigint' ? o + 1n : o + 1)

interface PartitionState extends TopicPartition {
  /** Offsets in flight, with how many times each was taken and not settled yet. */
  readonly pending: Map<Offset, number>
  highestDone: Offset
  committed: Offset
}

/** One partition as a map key. */
export const partitionKey = (tp: TopicPartition): string => `${tp.topic}\u0000${tp.partition}`

/**
 * Tracks, per partition, which received offsets are still in flight, so that a commit never
 * passes an offset whose effects are not durable yet — also when records finish out of order
 * (a parked record waiting for its due time while later ones are done). A record read twice (a
 * rejoin that kept the partition) is in flight until both copies are settled: one may be settled
 * as the other's in-batch duplicate while the other's lookup is abandoned at a stop. Records come
 * in runs of one partition, so the partition's state is looked up once per run.
 */
export class OffsetTracker {
  private readonly partitions = new Map<string, PartitionState>()

  received(records: readonly BrokerRecord[]): void {
    let state: PartitionState | undefined
    for (const r of records) {
      if (state === undefined || state.partition !== r.partition || state.topic !== r.topic) state = this.stateOf(r)
      const offset = offsetOf(r.offset)
      state.pending.set(offset, (state.pending.get(offset) ?? 0) + 1)
    }
  }

  done(records: readonly BrokerRecord[]): void {
    let state: PartitionState | undefined
    let last: BrokerRecord | undefined
    for (const r of records) {
      if (last === undefined || last.partition !== r.partition || last.topic !== r.topic) state = this.partitions.get(partitionKey(r))
      last = r
      if (!state) continue // revoked meanwhile: its offsets are no longer ours to commit
      const offset = offsetOf(r.offset)
      const left = (state.pending.get(offset) ?? 1) - 1
      if (left > 0) state.pending.set(offset, left)
      else state.pending.delete(offset)
      if (offset > state.highestDone) state.highestDone = offset
    }
  }

  /** Commits that move a partition forward: up to its lowest in-flight offset, else past the highest done. */
  committable(): OffsetCommit[] {
    const commits: OffsetCommit[] = []
    for (const state of this.partitions.values()) {
      let first = next(state.highestDone)
      for (const p of state.pending.keys()) if (p < first) first = p
      if (first > state.committed) {
        commits.push({ topic: state.topic, partition: state.partition, offset: first.toString() })
      }
    }
    return commits
  }

  markCommitted(commits: readonly OffsetCommit[]): void {
    for (const c of commits) {
      const state = this.partitions.get(partitionKey(c))
      if (state) state.committed = offsetOf(c.offset)
    }
  }

  revoke(partitions: readonly TopicPartition[]): void {
    for (const tp of partitions) this.partitions.delete(partitionKey(tp))
  }

  isTracked(tp: TopicPartition): boolean {
    return this.partitions.has(partitionKey(tp))
  }

  private stateOf(r: BrokerRecord): PartitionState {
    const key = partitionKey(r)
    let state = this.partitions.get(key)
    if (!state) {
      const start = offsetOf(r.offset)
      state = { topic: r.topic, partition: r.partition, pending: new Map(), highestDone: typeof start === 'bigint' ? start - 1n : start - 1, committed: start }
      this.partitions.set(key, state)
    }
    return state
  }
}
