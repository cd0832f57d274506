// How much each consumer fetches ahead and hands over at once. These set the service's memory:
// librdkafka prefetches up to 64 MB per partition per consumer by default (a 200,000-record
// backlog peaked above 1 GB RSS), and its KafkaJS-compatible layer hands `eachBatch` 32 messages at
// a time, so the per-batch work (log line, span, heartbeat timer) ran once per 32 records.

/** @confluentinc/kafka-javascript consumer properties (librdkafka names, plus the layer's own `js.*`). */
export const CONFLUENT_FETCH_SETTINGS = {
  /** Messages per `eachBatch` call: one engine batch (DEV_STATS_BATCH_MAX_ROWS' default). */
  'js.consumer.max.batch.size': 1000,
  /** Prefetch per partition, in KB (about 20,000 session-ended records). */
  'queued.max.messages.kbytes': 8192,
  /** One fetch response, all partitions of a broker (must stay ≥ message.max.bytes, 1 MB). */
  'fetch.max.bytes': 4 * 1024 * 1024,
} as const
