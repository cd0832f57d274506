import type { PartitionOffsets } from '../ports/consumer-group-admin.port.js'

/** What a replay does to one partition of a consumer's source topic. */
export interface PartitionReplay {
  readonly partition: number
  /** The group's committed offset; null when it never committed there. */
  readonly committed: string | null
  /** Where the group resumes today: its commit, or the earliest offset held (the service reads from the beginning). */
  readonly position: number
  /** The first offset at or after the time (the partition's end when no record is that recent). */
  readonly atTime: number
  /** The offset the group is moved to. */
  readonly next: number
  /** Records read again (position − next); negative: records skipped, only with `forward`. */
  readonly reread: number
}

export interface PlanInput {
  readonly watermarks: readonly PartitionOffsets[]
  readonly committed: ReadonlyMap<number, string>
  readonly atTime: ReadonlyMap<number, string>
  /** Also move partitions forward, past records the group has not read yet (`--to-latest`). */
  readonly forward: boolean
}

/**
 * Per partition: move the group back to the time, never forward past records it has not read
 * unless asked (they would never be ingested). Offsets below the earliest held are clamped to it.
 */
export const planReplay = ({ watermarks, committed, atTime, forward }: PlanInput): readonly PartitionReplay[] =>
  [...watermarks]
    .sort((a, b) => a.partition - b.partition)
    .map(({ partition, low, high }) => {
      const earliest = Number(low)
      const end = Number(high)
      const commit = committed.get(partition) ?? null
      const position = commit === null ? earliest : Math.min(end, Math.max(earliest, Number(commit)))
      const at = Math.min(end, Math.max(earliest, Number(atTime.get(partition) ?? end)))
      const next = forward ? at : Math.min(position, at)
      return { partition, committed: commit, position, atTime: at, next, reread: position - next }
    })

/** Partitions whose committed offset the replay changes. */
export const changedPartitions = (plan: readonly PartitionReplay[]): readonly PartitionReplay[] =>
  plan.filter((p) => p.committed === null || Number(p.committed) !== p.next)
