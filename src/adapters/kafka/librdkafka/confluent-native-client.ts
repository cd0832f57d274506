import type { TopicPartition } from '../../../application/ports/broker.port.js'
import { confluentClient } from './confluent-client.js'
import type { NativeMessage } from './confluent-native-records.js'
import { confluentSecurity } from './confluent-security.js'
import { CONFLUENT_FETCH_SETTINGS, CONFLUENT_FETCH_WAIT_MAX_MS } from './fetch-settings.js'
import { DEFAULT_SESSION_TIMEOUT_MS, type KafkaOptions } from '../shared/kafka-options.js'

export interface NativeOffset extends TopicPartition {
  readonly offset: number
}

/** What the group member tells the client glue; librdkafka calls these on the JS thread. */
export interface NativeEvents {
  /** `code` is librdkafka's -175 (assign) or -174 (revoke); the member must assign/unassign itself. */
  rebalance(code: number, partitions: TopicPartition[]): void
  /** The consumer queue went from empty to non-empty: a `consume` now returns at once. */
  nonEmpty(): void
  /** librdkafka's error events (most are retried by librdkafka itself). */
  error(e: { message: string; code?: number; isFatal?: boolean }): void
}

/** The few calls of librdkafka's own KafkaConsumer we use (its typings miss some), promisified. */
export interface NativeClient {
  /** Connects; `topic` is the one whose metadata the connect reads (not the whole cluster's). */
  connect(topic: string): Promise<void>
  subscribe(topics: string[]): void
  /** What is queued right now, up to `max` messages, without waiting for more. */
  consume(max: number): Promise<NativeMessage[]>
  /** A synchronous commit (on a worker thread): resolves once the coordinator acknowledged it. */
  commit(offsets: NativeOffset[]): Promise<void>
  seek(to: NativeOffset): Promise<void>
  assign(partitions: TopicPartition[]): void
  unassign(): void
  pause(partitions: TopicPartition[]): void
  resume(partitions: TopicPartition[]): void
  disconnect(): Promise<void>
}

type Callback<T = void> = (err: unknown, value?: T) => void
interface RawConsumer {
  connect(opts: object, cb: Callback): void
  subscribe(topics: string[]): void
  consume(n: number, cb: Callback<NativeMessage[]>): void
  commitCb(offsets: NativeOffset[], cb: Callback): void
  seek(to: NativeOffset, timeoutMs: number, cb: Callback): void
  assign(tps: TopicPartition[]): void
  unassign(): void
  pause(tps: TopicPartition[]): void
  resume(tps: TopicPartition[]): void
  disconnect(cb: Callback): void
  setDefaultConsumeTimeout(ms: number): void
  setDefaultIsTimeoutOnlyForFirstMessage(on: boolean): void
  on(event: 'event.error', listener: (e: { message: string; code?: number; isFatal?: boolean }) => void): void
}

const promised = <T = void>(call: (cb: Callback<T>) => void): Promise<T> =>
  new Promise((resolve, reject) => call((err, value) => (err ? reject(err) : resolve(value as T))))

/** One librdkafka consumer (its own threads and prefetch queue) for `groupId`, auto-commit off. */
export const nativeClient = (options: KafkaOptions, groupId: string, events: NativeEvents): NativeClient => {
  const { sessionTimeoutMs = DEFAULT_SESSION_TIMEOUT_MS, maxWaitMs = CONFLUENT_FETCH_WAIT_MAX_MS } = options
  const Consumer = confluentClient().KafkaConsumer as unknown as new (conf: object, topicConf: object) => RawConsumer
  const raw = new Consumer({
    'bootstrap.servers': options.brokers.join(','),
    'client.id': options.clientId,
    'group.id': groupId,
    // `roundrobin`: the protocol kafkajs members speak too (shared-assigner.ts).
    'partition.assignment.strategy': 'roundrobin',
    'enable.auto.commit': false,
    'enable.auto.offset.store': false,
    'session.timeout.ms': sessionTimeoutMs,
    'heartbeat.interval.ms': Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
    'fetch.wait.max.ms': maxWaitMs,
    // The group waits this long for a member stuck in a batch (e.g. a store outage) before it
    // drops it; the KafkaJS-compatible layer used twice librdkafka's default too.
    'max.poll.interval.ms': 600_000,
    ...CONFLUENT_FETCH_SETTINGS,
    ...confluentSecurity(options.security),
    rebalance_cb: (err: { code: number }, partitions: TopicPartition[]) => events.rebalance(err.code, partitions),
    queue_non_empty_cb: () => events.nonEmpty(),
  }, { 'auto.offset.reset': 'earliest' })
  raw.on('event.error', (e) => events.error(e))
  return {
    connect: async (topic) => {
      // By default the connect reads every topic's metadata and keeps it, in JS and in librdkafka:
      // 16 consumers on a broker with 4,000 partitions held 90 MB of it.
      await promised((cb) => raw.connect({ allTopics: false, topic }, cb))
      // Only what is queued: an idle consumer waits for `nonEmpty` instead of a worker thread.
      raw.setDefaultConsumeTimeout(0)
      raw.setDefaultIsTimeoutOnlyForFirstMessage(true)
    },
    subscribe: (topics) => raw.subscribe(topics),
    consume: (max) => promised<NativeMessage[]>((cb) => raw.consume(max, cb)).then((m) => m ?? []),
    commit: (offsets) => promised((cb) => raw.commitCb(offsets, cb)),
    seek: (to) => promised((cb) => raw.seek(to, 5000, cb)),
    assign: (tps) => raw.assign(tps),
    unassign: () => raw.unassign(),
    pause: (tps) => raw.pause(tps),
    resume: (tps) => raw.resume(tps),
    disconnect: () => promised((cb) => raw.disconnect(cb)),
  }
}
