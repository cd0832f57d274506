import type { Kafka as KafkaClient, Producer } from 'kafkajs'
import type { ConsumerGroupAdmin } from '../../../application/ports/consumer-group-admin.port.js'
import type {
  Broker, BrokerConsumer, BrokerProducer, OutboundRecord, PartitionOffsets,
} from '../../../application/ports/broker.port.js'
import { committedOffsetsVia, partitionOffsetsVia, withAdmin } from '../shared/kafka-admin-offsets.js'
import { kafkaGroupAdmin } from '../shared/kafka-group-admin.js'
import { DriverBackedConsumer, type DriverConsumer, type RebalanceHooks } from './driver-consumer.js'
import { kafkaJsDriverConsumer } from './kafkajs-driver-consumer.js'
import type { LagAdmin } from '../shared/admin-lag-reader.js'
import { brokerError } from '../shared/kafka-errors.js'
import { checkKafkaJsConnection } from './kafkajs-connection-check.js'
import { kafkaJsClient } from '../shared/kafkajs-client.js'
import { useFastKafkaJsRecordDecoder } from './kafkajs-record-decoder.js'
import {
  DEFAULT_JOIN_TIMEOUT_MS, DEFAULT_MAX_WAIT_MS, DEFAULT_SESSION_TIMEOUT_MS, HEARTBEAT_EVERY_MS, type KafkaOptions,
} from '../shared/kafka-options.js'
import { topicMessagesOf } from '../shared/kafka-records.js'
import { librdkafkaRoundRobin } from './shared-assigner.js'

// Set before any consumer fetches: kafkajs binds its record decoder at the first fetch.
useFastKafkaJsRecordDecoder()

/**
 * The one producer's settings (parked copies and dead letters). Not idempotent: kafkajs 2.2.4's
 * idempotent producer rewinds a partition's sequence number when a produce fails, also when the
 * broker had written it and only the answer was lost (a broker restart); the next batch sent to
 * that partition then reuses the sequence and, with as many records, the broker takes it for a
 * duplicate of the written one and acknowledges it without writing it: parked copies lost while
 * the engine commits their source records (found chasing the soak's funnel shortfall; unit test
 * kafkajs-producer-sequence.test.ts). A retried batch may now be written twice instead: harmless,
 * a parked copy is deduplicated where it lands and a dead letter is read at least once anyway.
 */
export const KAFKAJS_PRODUCER_OPTIONS = { idempotent: false, maxInFlightRequests: 5, allowAutoTopicCreation: false } as const

/**
 * The Broker port over kafkajs (pure JavaScript); its consumers: kafkajs-driver-consumer.ts. Its
 * eager protocol re-reads every partition from the committed offset after a rebalance.
 */
export class KafkaJsBroker implements Broker {
  private readonly kafka: KafkaClient
  private producerClient: Promise<Producer> | undefined

  constructor(private readonly options: KafkaOptions) {
    this.kafka = kafkaJsClient(options)
  }

  consumer(groupId: string): BrokerConsumer {
    const { sessionTimeoutMs = DEFAULT_SESSION_TIMEOUT_MS, maxWaitMs = DEFAULT_MAX_WAIT_MS } = this.options
    return new DriverBackedConsumer(
      (hooks) => this.driverConsumer(groupId, sessionTimeoutMs, maxWaitMs, hooks),
      { heartbeatEveryMs: HEARTBEAT_EVERY_MS, joinTimeoutMs: this.options.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS },
    )
  }

  producer(): BrokerProducer {
    return {
      publish: async (records: readonly OutboundRecord[]) => {
        if (records.length === 0) return
        const producer = await this.connectedProducer()
        try {
          await producer.sendBatch({ topicMessages: topicMessagesOf(records), acks: -1 })
        } catch (e) {
          throw brokerError('publish', e)
        }
      },
    }
  }

  /** A new admin client with the broker's connection settings (the consumer-lag reader's). */
  admin(): LagAdmin {
    return this.kafka.admin()
  }

  partitionOffsets(topic: string): Promise<readonly PartitionOffsets[]> {
    return partitionOffsetsVia(this.admin(), topic)
  }

  committedOffsets(groupId: string, topic: string): Promise<ReadonlyMap<number, string>> {
    return committedOffsetsVia(this.admin(), groupId, topic)
  }

  groupAdmin(): ConsumerGroupAdmin {
    return kafkaGroupAdmin(() => this.kafka.admin(), (groupId, topic, offsets) =>
      withAdmin(this.kafka.admin(), `set offsets of ${groupId}`, (a) => a.setOffsets({ groupId, topic, partitions: [...offsets] })))
  }

  /** Start-up check with a bounded time: a ConnectionError says what is wrong (TLS, login…). */
  checkConnection(): Promise<void> {
    return checkKafkaJsConnection(this.kafka, this.options)
  }

  /** Disconnects the shared producer (consumers disconnect in their own `stop`). */
  async close(): Promise<void> {
    const p = this.producerClient
    this.producerClient = undefined
    if (p) await (await p.catch(() => undefined))?.disconnect()
  }

  private driverConsumer(groupId: string, sessionTimeout: number, maxWaitTimeInMs: number, hooks: RebalanceHooks): DriverConsumer {
    return kafkaJsDriverConsumer(
      (restartOnFailure) => this.kafka.consumer({
        groupId,
        // The protocol librdkafka members speak too (shared-assigner.ts).
        partitionAssigners: [librdkafkaRoundRobin],
        sessionTimeout,
        rebalanceTimeout: Math.max(sessionTimeout, 10_000),
        heartbeatInterval: Math.min(3000, Math.floor(sessionTimeout / 3)),
        maxWaitTimeInMs,
        retry: { retries: 10, initialRetryTime: 200, maxRetryTime: 5000, restartOnFailure },
      }),
      hooks,
      (err) => this.options.logger?.error({ client: 'kafkajs', groupId, err: String(err) }, 'consumer crashed and kafkajs will not restart it: rejoining'),
    )
  }

  private connectedProducer(): Promise<Producer> {
    if (!this.producerClient) {
      const producer = this.kafka.producer(KAFKAJS_PRODUCER_OPTIONS)
      this.producerClient = producer.connect().then(
        () => producer,
        (e: unknown) => {
          this.producerClient = undefined
          throw brokerError('producer connect', e)
        },
      )
    }
    return this.producerClient
  }
}
