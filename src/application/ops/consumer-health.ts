import type { EngineFailure } from '../engine/engine-stats.js'
import type { IngestService } from '../ingest-service.js'
import type { LaggingConsumer } from './lag-monitor.js'

/** What the health check and the ops gauges need to know about one consumer. */
export interface ConsumerHealth {
  readonly name: string
  /** Epoch ms its consumer joined the group (its start resolved); undefined while starting or stopped. */
  readonly joinedAt?: number
  readonly lastCommitAt?: number
  readonly retryingSince?: number
  readonly lastFailure?: EngineFailure
  readonly parkedInMemory: number
}

export const consumerHealthOf = (service: IngestService): ConsumerHealth[] =>
  service.engines.map((e) => ({
    name: e.name,
    joinedAt: service.joinedAt(e.name),
    lastCommitAt: e.stats.lastCommitAt,
    retryingSince: e.stats.retryingSince,
    lastFailure: e.stats.lastFailure,
    parkedInMemory: e.parkedInMemory,
  }))

/** The topics whose lag matters: the source and the group's retry topic. */
export const laggingConsumersOf = (service: IngestService): LaggingConsumer[] =>
  service.engines.map((e) => ({ name: e.name, groupId: e.handler.groupId, topics: [e.topics.source, e.topics.retry] }))

/** Seconds since the last commit, counted from the join while it never committed. */
export const secondsSinceCommit = (c: ConsumerHealth, now: number): number | undefined => {
  const since = c.lastCommitAt ?? c.joinedAt
  return since === undefined ? undefined : Math.max(0, (now - since) / 1000)
}
