import type { ResolvedConsumer } from '../consumers/consumer-topics.js'
import { OffsetsNotApplied, type ConsumerGroupAdmin, type GroupMember } from '../ports/consumer-group-admin.port.js'
import { changedPartitions, planReplay, type PartitionReplay } from './replay-plan.js'

export interface ReplayRequest {
  /** Epoch ms: re-read every record that arrived in Kafka at or after it. */
  readonly from: number
  readonly dryRun: boolean
  /** Also move partitions forward (records not yet read are skipped). */
  readonly toLatest: boolean
}

/** One consumer's replay; the retry topic is never moved (docs/operations.md: why). */
export interface ConsumerReplay {
  readonly consumer: ResolvedConsumer
  readonly plan: readonly PartitionReplay[]
  /** Active members of the group: a real run refuses while there are any. */
  readonly members: readonly GroupMember[]
}

export type ReplayOutcome =
  | { readonly kind: 'planned'; readonly replays: readonly ConsumerReplay[] }
  | { readonly kind: 'applied'; readonly replays: readonly ConsumerReplay[] }
  | { readonly kind: 'refused'; readonly replays: readonly ConsumerReplay[]; readonly busy: readonly ConsumerReplay[] }

/** The broker answered without error but the group's offsets are not the ones set (a member joined meanwhile). */
export class ReplayNotApplied extends Error {
  constructor(readonly groupId: string, readonly partitions: readonly number[]) {
    super(`the broker did not take the new offsets of group ${groupId} on partition(s) ${partitions.join(', ')}: did a member join meanwhile? Stop it and run again`)
    this.name = 'ReplayNotApplied'
  }
}

const planOf = async (admin: ConsumerGroupAdmin, consumer: ResolvedConsumer, request: ReplayRequest): Promise<ConsumerReplay> => {
  const { groupId, topics } = consumer
  const [members, watermarks, committed, atTime] = await Promise.all([
    admin.members(groupId),
    admin.partitionOffsets(topics.source),
    admin.committedOffsets(groupId, topics.source),
    admin.offsetsAt(topics.source, request.from),
  ])
  return { consumer, members, plan: planReplay({ watermarks, committed, atTime, forward: request.toLatest }) }
}

const apply = async (admin: ConsumerGroupAdmin, { consumer, plan }: ConsumerReplay): Promise<void> => {
  const changed = changedPartitions(plan)
  if (changed.length === 0) return
  const { groupId, topics } = consumer
  try {
    await admin.setOffsets(groupId, topics.source, changed.map((p) => ({ partition: p.partition, offset: String(p.next) })))
  } catch (e) {
    if (e instanceof OffsetsNotApplied) throw new ReplayNotApplied(groupId, e.partitions)
    throw e
  }
}

/**
 * Moves each consumer's group on its source topic to the time (spec §10: re-consuming is safe,
 * rows collapse by their keys). Plans every consumer first; refuses all of them while any group
 * has members (Kafka would refuse the reset anyway); a dry run only plans.
 */
export const replayConsumers = (admin: ConsumerGroupAdmin) =>
  async (consumers: readonly ResolvedConsumer[], request: ReplayRequest): Promise<ReplayOutcome> => {
    const replays: ConsumerReplay[] = []
    for (const c of consumers) replays.push(await planOf(admin, c, request))
    if (request.dryRun) return { kind: 'planned', replays }
    const busy = replays.filter((r) => r.members.length > 0)
    if (busy.length > 0) return { kind: 'refused', replays, busy }
    for (const r of replays) await apply(admin, r)
    return { kind: 'applied', replays }
  }
