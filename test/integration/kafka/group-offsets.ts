import type { Broker } from '../../../src/application/ports/broker.port.js'
import { readTopic, withTestAdmin } from '../../support/kafka.js'

// Per-partition views of a group for the SIGTERM and store-outage tests: what it committed, who
// is in it, and which records sit below its committed offsets.

/** The group's committed next-offset per partition (0 where it committed nothing). */
export const committedOffsets = (groupId: string, topic: string): Promise<Map<number, bigint>> =>
  withTestAdmin(async (a) => {
    const [t] = await a.fetchOffsets({ groupId, topics: [topic] })
    return new Map((t?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset) < 0n ? 0n : BigInt(p.offset)]))
  })

export const sumOf = (offsets: Map<number, bigint>): number => Number([...offsets.values()].reduce((a, b) => a + b, 0n))

/** Group state and member count as the coordinator sees them. */
export const groupMembers = (groupId: string): Promise<{ state: string; members: number }> =>
  withTestAdmin(async (a) => {
    const { groups } = await a.describeGroups([groupId])
    return { state: groups[0]?.state ?? 'Unknown', members: groups[0]?.members.length ?? 0 }
  })

export interface Position {
  readonly partition: number
  readonly offset: bigint
}

/** Where each record landed: ce_id → partition and offset, read back from the topic. */
export const positionsOf = async (broker: Broker, topic: string, count: number): Promise<Map<string, Position>> => {
  const records = await readTopic(broker, topic, count, 60_000)
  return new Map(records.map((r) => [r.headers['ce_id'] as string, { partition: r.partition, offset: BigInt(r.offset) }]))
}

/** Records below the committed offsets that are not in `stored`: must always be empty. */
export const committedButNotStored = (committed: Map<number, bigint>, positions: Map<string, Position>, stored: ReadonlySet<string>): string[] =>
  [...positions].filter(([id, p]) => p.offset < (committed.get(p.partition) ?? 0n) && !stored.has(id)).map(([id]) => id)
