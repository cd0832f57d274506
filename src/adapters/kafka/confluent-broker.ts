import type {
  Broker, BrokerConsumer, BrokerProducer, OutboundRecord, PartitionOffsets, TopicPartition,
} from '../../application/ports/broker.port.js'
import { confluentClient, type ConfluentModule } from './confluent-client.js'
import { committedOffsetsVia, partitionOffsetsVia } from './kafka-admin-offsets.js'
import { DriverBackedConsumer, type DriverConsumer, type RebalanceHooks } from './driver-consumer.js'
import type { LagAdmin } from './admin-lag-reader.js'
import { confluentLogger } from './kafka-client-logs.js'
import { checkConfluentConnection } from './confluent-connection-check.js'
import { confluentSecurity } from './confluent-security.js'
import { brokerError } from './kafka-errors.js'
import { CONFLUENT_FETCH_SETTINGS } from './fetch-settings.js'
import {
  DEFAULT_JOIN_TIMEOUT_MS, DEFAULT_MAX_WAIT_MS, DEFAULT_SESSION_TIMEOUT_MS, HEARTBEAT_EVERY_MS, type KafkaOptions,
} from './kafka-options.js'
import { topicMessagesOf } from './kafka-records.js'

// librdkafka's rebalance event codes (RD_KAFKA_RESP_ERR__ASSIGN_PARTITIONS / __REVOKE_PARTITIONS).
const ASSIGN = -175
const REVOKE = -174

// The client's producer/consumer types are loose; we only use the KafkaJS-compatible surface.
type ConfluentKafka = InstanceType<ConfluentModule['KafkaJS']['Kafka']>
type ConfluentProducer = ReturnType<ConfluentKafka['producer']>

/**
 * The Broker port over @confluentinc/kafka-javascript (librdkafka) through its KafkaJS-compatible
 * API. librdkafka reports revocations itself (`rebalance_cb`), before the partitions are
 * unassigned, and heartbeats from its own thread, so a long insert never costs the membership.
 */
export class ConfluentBroker implements Broker {
  private client: ConfluentKafka | undefined
  private producerClient: Promise<ConfluentProducer> | undefined

  constructor(private readonly options: KafkaOptions) {}

  /** Created on first use: the optional native client is loaded only when this adapter really runs. */
  private get kafka(): ConfluentKafka {
    const { Kafka, logLevel } = confluentClient().KafkaJS
    this.client ??= new Kafka({
      kafkaJS: {
        clientId: this.options.clientId, brokers: [...this.options.brokers], logLevel: logLevel.ERROR, connectionTimeout: 3000,
        logger: confluentLogger(this.options.logger, logLevel.ERROR),
      },
      ...confluentSecurity(this.options.security),
    })
    return this.client
  }

  consumer(groupId: string): BrokerConsumer {
    return new DriverBackedConsumer((hooks) => this.driverConsumer(groupId, hooks), {
      heartbeatEveryMs: HEARTBEAT_EVERY_MS,
      joinTimeoutMs: this.options.joinTimeoutMs ?? DEFAULT_JOIN_TIMEOUT_MS,
    })
  }

  producer(): BrokerProducer {
    return {
      publish: async (records: readonly OutboundRecord[]) => {
        if (records.length === 0) return
        const producer = await this.connectedProducer()
        try {
          await producer.sendBatch({ topicMessages: topicMessagesOf(records) })
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

  /** Start-up check with a bounded time: a ConnectionError says what is wrong (TLS, login…). */
  checkConnection(): Promise<void> {
    return checkConfluentConnection(this.options)
  }

  async close(): Promise<void> {
    const p = this.producerClient
    this.producerClient = undefined
    if (p) await (await p.catch(() => undefined))?.disconnect()
  }

  private driverConsumer(groupId: string, hooks: RebalanceHooks): DriverConsumer {
    const { sessionTimeoutMs = DEFAULT_SESSION_TIMEOUT_MS, maxWaitMs = DEFAULT_MAX_WAIT_MS } = this.options
    const consumer = this.kafka.consumer({
      kafkaJS: {
        groupId,
        // `roundrobin`: the protocol kafkajs members speak too (shared-assigner.ts).
        partitionAssigners: [confluentClient().KafkaJS.PartitionAssigners.roundRobin],
        fromBeginning: true,
        autoCommit: false,
        sessionTimeout: sessionTimeoutMs,
        heartbeatInterval: Math.min(3000, Math.floor(sessionTimeoutMs / 3)),
        maxWaitTimeInMs: maxWaitMs,
      },
      ...CONFLUENT_FETCH_SETTINGS,
      // Awaited by the client before it unassigns: the engine drops the partitions' offsets first.
      rebalance_cb: async (err: { code: number }, assignment: TopicPartition[]) => {
        if (err.code === ASSIGN) {
          hooks.assignment.add(assignment)
          hooks.assigned()
        } else if (err.code === REVOKE) {
          await hooks.revoked(hooks.assignment.remove(assignment))
        }
      },
    })
    return {
      connect: () => consumer.connect(),
      subscribe: ({ topics }) => consumer.subscribe({ topics }),
      run: ({ eachBatchAutoResolve, eachBatch }) =>
        consumer.run({ eachBatchAutoResolve, partitionsConsumedConcurrently: 1, eachBatch: eachBatch as never }),
      commitOffsets: (offsets) => consumer.commitOffsets(offsets),
      pause: (topics) => consumer.pause(topics),
      resume: (topics) => consumer.resume(topics),
      disconnect: () => consumer.disconnect(),
    }
  }

  private connectedProducer(): Promise<ConfluentProducer> {
    if (!this.producerClient) {
      const producer = this.kafka.producer({ kafkaJS: { idempotent: true, acks: -1, allowAutoTopicCreation: false } })
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
