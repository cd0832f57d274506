import type { ConsumerGroupAdmin } from '../../../application/ports/consumer-group-admin.port.js'
import type {
  Broker, BrokerConsumer, BrokerProducer, OutboundRecord, PartitionOffsets,
} from '../../../application/ports/broker.port.js'
import { confluentClient, type ConfluentModule } from './confluent-client.js'
import { committedOffsetsVia, partitionOffsetsVia } from '../shared/kafka-admin-offsets.js'
import { confluentGroupCommit } from './confluent-group-commit.js'
import { kafkaGroupAdmin } from '../shared/kafka-group-admin.js'
import { ConfluentNativeConsumer } from './confluent-native-consumer.js'
import type { LagAdmin } from '../shared/admin-lag-reader.js'
import { confluentLogger } from '../shared/kafka-client-logs.js'
import { checkConfluentConnection } from './confluent-connection-check.js'
import { confluentSecurity } from './confluent-security.js'
import { brokerError } from '../shared/kafka-errors.js'
import type { KafkaOptions } from '../shared/kafka-options.js'
import { topicMessagesOf } from '../shared/kafka-records.js'
import { kafkaJsClient } from '../shared/kafkajs-client.js'

// The client's producer types are loose; the producer and admin use the KafkaJS-compatible surface.
type ConfluentKafka = InstanceType<ConfluentModule['KafkaJS']['Kafka']>
type ConfluentProducer = ReturnType<ConfluentKafka['producer']>

/**
 * The Broker port over @confluentinc/kafka-javascript (librdkafka). Consumers use librdkafka's own
 * API (confluent-native-consumer.ts: batches straight from its queue, no per-message layer);
 * the producer its KafkaJS-compatible API. librdkafka heartbeats from its own thread, so a long
 * insert never costs the membership.
 *
 * Offsets and consumer lag are read with kafkajs's admin (pure JavaScript, the same connection
 * settings), never librdkafka's: its ListConsumerGroupOffsets (the admin's `fetchOffsets`)
 * dereferences a NULL consumer group when a broker answers NOT_COORDINATOR, as a broker does for
 * a while after it restarts, and the whole process dies with SIGSEGV (librdkafka 2.15.1, in
 * rd_kafka_handle_OffsetFetch; upstream librdkafka#5040, confluent-kafka-javascript#374). The lag
 * monitor asks every 15 s, so every broker restart could kill the service (issue 20's soak).
 */
export class ConfluentBroker implements Broker {
  private client: ConfluentKafka | undefined
  private offsetsClient: ReturnType<typeof kafkaJsClient> | undefined
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
    return new ConfluentNativeConsumer(this.options, groupId)
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

  /** kafkajs, for every offset and lag read (see the class comment: librdkafka's admin crashes on NOT_COORDINATOR). */
  private get offsetsKafka(): ReturnType<typeof kafkaJsClient> {
    this.offsetsClient ??= kafkaJsClient(this.options)
    return this.offsetsClient
  }

  /** A new admin client with the broker's connection settings (the consumer-lag reader's): kafkajs's, see above. */
  admin(): LagAdmin {
    return this.offsetsKafka.admin()
  }

  partitionOffsets(topic: string): Promise<readonly PartitionOffsets[]> {
    return partitionOffsetsVia(this.admin(), topic)
  }

  committedOffsets(groupId: string, topic: string): Promise<ReadonlyMap<number, string>> {
    return committedOffsetsVia(this.admin(), groupId, topic)
  }

  groupAdmin(): ConsumerGroupAdmin {
    return kafkaGroupAdmin(() => this.offsetsKafka.admin(), confluentGroupCommit(this.options))
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
