import kafkajs from 'kafkajs'
import type { Broker, BrokerRecord, OutboundRecord } from '../../src/application/ports/broker.port.js'
import { ConfluentBroker } from '../../src/adapters/kafka/librdkafka/confluent-broker.js'
import { KafkaJsBroker } from '../../src/adapters/kafka/kafkajs/kafkajs-broker.js'
import type { KafkaOptions } from '../../src/adapters/kafka/shared/kafka-options.js'
import { untilHostedWithLeaders } from '../../src/adapters/kafka/kafkajs/kafkajs-topic-catalog.js'
import { binaryRecord, sessionEndedPayload } from './events.js'

process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1'

/** The local broker of scripts/kafka-broker.sh (started by test/integration/setup/kafka.global.ts). */
export const KAFKA_BROKERS = (process.env.DEV_STATS_KAFKA_BROKERS ?? `127.0.0.1:${process.env.KAFKA_PORT ?? '19092'}`).split(',')

export type KafkaAdapter = 'kafkajs' | 'confluent'
export const KAFKA_ADAPTERS: readonly KafkaAdapter[] = ['kafkajs', 'confluent']

/** Fast failover for tests: a crashed member loses its partitions after the broker's minimum session. */
export const TEST_KAFKA_OPTIONS: KafkaOptions = {
  brokers: KAFKA_BROKERS,
  clientId: 'dev-stats-test',
  sessionTimeoutMs: 6000,
  maxWaitMs: 200,
}

export const kafkaBroker = (adapter: KafkaAdapter, options: KafkaOptions = TEST_KAFKA_OPTIONS): KafkaJsBroker | ConfluentBroker =>
  adapter === 'kafkajs' ? new KafkaJsBroker(options) : new ConfluentBroker(options)

const admin = () => new kafkajs.Kafka({ clientId: 'dev-stats-test-admin', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin()

/**
 * Creates topics (idempotently) and waits until the broker hosts each with a leader for every
 * partition. A busy broker may answer the first metadata request after the create with
 * UNKNOWN_TOPIC_OR_PARTITION, on which kafkajs's own wait for leaders gives up: asked again here.
 */
export const createTopics = async (topics: readonly { name: string; partitions: number }[]): Promise<void> => {
  const a = admin()
  await a.connect()
  try {
    await a.createTopics({ topics: topics.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor: 1 })), waitForLeaders: false })
    await untilHostedWithLeaders(a, topics.map((t) => t.name))
  } finally {
    await a.disconnect()
  }
}


export const createTopic = (name: string, partitions: number) => createTopics([{ name, partitions }])

/**
 * A busy broker may answer an admin request with a retriable error (NOT_LEADER_FOR_PARTITION on
 * list-offsets, seen in CI), which kafkajs's admin passes on: asked again, up to 10 times.
 */
const retryingRetriable = async <T>(work: () => Promise<T>): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work()
    } catch (e) {
      const err = e as { retriable?: boolean; cause?: { retriable?: boolean } }
      if (attempt >= 10 || (err.retriable ?? err.cause?.retriable) !== true) throw e
      await new Promise((r) => setTimeout(r, 200 * attempt))
    }
  }
}

/** One short admin connection, asked again on a retriable error. */
export const withTestAdmin = async <T>(work: (a: kafkajs.Admin) => Promise<T>): Promise<T> =>
  retryingRetriable(async () => {
    const a = admin()
    await a.connect()
    try {
      return await work(a)
    } finally {
      await a.disconnect()
    }
  })

/** Committed offsets of a group (sum over partitions) and the topic's end offsets. */
export const lagOf = (groupId: string, topic: string): Promise<number> =>
  withTestAdmin(async (a) => {
    const [ends, committed] = await Promise.all([a.fetchTopicOffsets(topic), a.fetchOffsets({ groupId, topics: [topic] })])
    const done = new Map((committed[0]?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]))
    let lag = 0n
    for (const e of ends) {
      const c = done.get(e.partition) ?? -1n
      lag += BigInt(e.high) - (c < 0n ? BigInt(e.low) : c)
    }
    return Number(lag)
  })

/** High watermark sum of a topic (how many records it ever got). */
export const recordsIn = (topic: string): Promise<number> =>
  withTestAdmin(async (a) => (await a.fetchTopicOffsets(topic)).reduce((n, p) => n + Number(p.high), 0))

/** Reads a whole topic from the beginning with a throwaway group until `count` records arrived. */
export const readTopic = async (broker: Broker, topic: string, count: number, timeoutMs = 60_000): Promise<BrokerRecord[]> => {
  const consumer = broker.consumer(`reader-${topic}-${Date.now()}-${Math.random()}`)
  const got: BrokerRecord[] = []
  await consumer.run([topic], { onBatch: async (rs) => void got.push(...rs), onRevoked: async () => undefined })
  const deadline = Date.now() + timeoutMs
  try {
    while (got.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    await new Promise((r) => setTimeout(r, 300))
  } finally {
    await consumer.stop()
  }
  return got
}

/** A consumer's source topic (`partitions`), its dead-letter topic and its retry topic. */
export const createConsumerTopics = (handler: { topic: string; groupId: string }, partitions = 6): Promise<void> =>
  createTopics([
    { name: handler.topic, partitions },
    { name: `${handler.topic}.dlq`, partitions: 1 },
    { name: `${handler.groupId}.retry`, partitions: 1 },
  ])

/** `count` valid session-ended records keyed by SessionId (as the producer promises), and their message ids. */
export const sessionStream = (topic: string, count: number): { records: OutboundRecord[]; expected: Set<string> } => {
  const createdAt = new Date(Date.now() - 3_600_000).toISOString()
  const records = Array.from({ length: count }, () => {
    const p = sessionEndedPayload({ CreatedAt: createdAt, LastActivityAt: new Date().toISOString() })
    return binaryRecord(topic, p, { key: p.SessionId as string })
  })
  return { records, expected: new Set(records.map((r) => r.headers['ce_id'] as string)) }
}
