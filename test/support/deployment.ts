import { CONSUMERS } from '../../src/application/consumers/consumer-registry.js'
import { resolveConsumer, type ResolvedConsumer } from '../../src/application/consumers/consumer-topics.js'
import type { EngineTopics } from '../../src/application/engine/engine-config.js'
import { clickhouseUrl } from './clickhouse.js'
import { KAFKA_BROKERS } from './kafka.js'

/** One `npm start` deployment of a test run: every consumer on topics and a group of its own, its own database. */
export interface Deployment {
  readonly env: Record<string, string>
  readonly consumers: readonly ResolvedConsumer[]
  readonly database: string
  /** Source, dead-letter and retry topics of every consumer: what the run removes afterwards. */
  readonly topics: readonly string[]
  topicsOf(key: string): EngineTopics
  groupOf(key: string): string
}

export const isolatedDeployment = (adapter: string, name: string, env: Record<string, string> = {}): Deployment => {
  const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
  const suffix = `${name}-${adapter}-${run}`
  const database = `${name}_${adapter}_${run}`.replace(/-/g, '_')
  const full: Record<string, string> = {
    DEV_STATS_BROKER: adapter,
    DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
    DEV_STATS_CLICKHOUSE_DATABASE: database,
    DEV_STATS_FLUSH_INTERVAL_MS: '300',
    DEV_STATS_HTTP_PORT: '0',
    DEV_STATS_LOG_LEVEL: 'info',
    ...env,
  }
  for (const c of CONSUMERS) {
    full[`DEV_STATS_TOPIC_${c.key}`] = `${c.topic}.${suffix}`
    full[`DEV_STATS_GROUP_${c.key}`] = `${c.groupId}.${suffix}`
  }
  const consumers = CONSUMERS.map((c) => resolveConsumer(c, { [c.key]: { topic: full[`DEV_STATS_TOPIC_${c.key}`], group: full[`DEV_STATS_GROUP_${c.key}`] } }))
  const of = (key: string) => {
    const c = consumers.find((r) => r.spec.key === key)
    if (!c) throw new Error(`no consumer ${key}`)
    return c
  }
  return {
    env: full,
    consumers,
    database,
    topics: consumers.flatMap((c) => [c.topics.source, c.topics.deadLetter, c.topics.retry]),
    topicsOf: (key) => of(key).topics,
    groupOf: (key) => of(key).groupId,
  }
}
