import type { PartitionLag } from '../../../application/ports/consumer-lag.port.js'

/** A partition's watermarks as both clients' `admin.fetchTopicOffsets` return them. */
export interface Watermarks {
  readonly partition: number
  readonly low: string
  readonly high: string
}

/** A group's committed offset as `admin.fetchOffsets` returns it ('-1' when it never committed). */
export interface CommittedOffset {
  readonly partition: number
  readonly offset: string
}

/** end − committed per partition; a group that never committed is behind by the whole retained log. */
export const partitionLags = (topic: string, ends: readonly Watermarks[], committed: readonly CommittedOffset[]): PartitionLag[] =>
  ends
    .map((w) => {
      const end = Number(w.high)
      const low = Number(w.low)
      const offset = Number(committed.find((c) => c.partition === w.partition)?.offset ?? '-1')
      const from = Number.isFinite(offset) && offset >= 0 ? Math.max(offset, low) : low
      return { topic, partition: w.partition, end, committed: from, lag: Math.max(0, end - from) }
    })
    .sort((a, b) => a.partition - b.partition)
