import kafkajs from 'kafkajs'
import type { Kafka as KafkaClient } from 'kafkajs'
import { kafkaJsLogCreator } from './kafka-client-logs.js'
import type { KafkaOptions } from './kafka-options.js'
import { kafkajsSecurity } from './kafkajs-security.js'
import { fixKafkaJsIdleTimerLoop } from './kafkajs-request-queue.js'

// Shared: the kafkajs adapter's client, and the librdkafka adapter's for offsets and lag
// (librdkafka/confluent-broker.ts says why that one is kafkajs's).
const { Kafka, logLevel } = kafkajs
process.env.KAFKAJS_NO_PARTITIONER_WARNING ??= '1'
fixKafkaJsIdleTimerLoop()

/** A kafkajs client with the broker's connection settings (no connection is opened until used). */
export const kafkaJsClient = (options: KafkaOptions): KafkaClient =>
  new Kafka({
    clientId: options.clientId,
    brokers: [...options.brokers],
    ...kafkajsSecurity(options.security),
    logLevel: logLevel.ERROR,
    logCreator: kafkaJsLogCreator(options.logger),
    connectionTimeout: 3000,
    retry: { retries: 5, initialRetryTime: 200, maxRetryTime: 5000 },
  })

