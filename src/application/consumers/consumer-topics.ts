import { defaultTopics, type EngineTopics } from '../engine/engine-config.js'
import type { ConsumerFlags, ConsumerSpec } from './consumer-registry.js'

/** A deployment's own topic or group for one consumer (DEV_STATS_TOPIC_<key> / DEV_STATS_GROUP_<key>). */
export interface ConsumerOverride {
  readonly topic?: string
  readonly group?: string
}
export type ConsumerOverrides = Readonly<Record<string, ConsumerOverride | undefined>>

/** A registered consumer with its overrides applied: the topics and group it really uses. */
export interface ResolvedConsumer {
  readonly spec: ConsumerSpec
  readonly groupId: string
  readonly topics: EngineTopics
}

export interface TopicToProvision {
  readonly name: string
  readonly partitions: number
}

const RETRY_PARTITIONS = 3
const DEAD_LETTER_PARTITIONS = 1

export const resolveConsumer = (spec: ConsumerSpec, overrides: ConsumerOverrides = {}): ResolvedConsumer => {
  const o = overrides[spec.key] ?? {}
  const groupId = o.group ?? spec.groupId
  return { spec, groupId, topics: defaultTopics(o.topic ?? spec.topic, groupId) }
}

export const isEnabled = (spec: ConsumerSpec, flags: ConsumerFlags): boolean =>
  spec.enabledWhen === undefined || flags[spec.enabledWhen]

/** Source, `.dlq` and `.retry` topic of every consumer given, each once (the first mention's partitions). */
export const topicsToProvision = (consumers: readonly ResolvedConsumer[]): readonly TopicToProvision[] => {
  const wanted = new Map<string, number>()
  for (const { spec, topics } of consumers) {
    for (const [name, partitions] of [
      [topics.source, spec.partitions],
      [topics.deadLetter, DEAD_LETTER_PARTITIONS],
      [topics.retry, RETRY_PARTITIONS],
    ] as const) if (!wanted.has(name)) wanted.set(name, partitions)
  }
  return [...wanted].map(([name, partitions]) => ({ name, partitions }))
}

/** Every topic the consumers read or write: what must exist before any of them joins its group. */
export const requiredTopics = (consumers: readonly ResolvedConsumer[]): readonly string[] =>
  topicsToProvision(consumers).map((t) => t.name)
