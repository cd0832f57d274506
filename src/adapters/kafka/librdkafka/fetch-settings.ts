// How much each consumer fetches ahead and hands over at once. These set the service's memory:
// librdkafka prefetches up to 64 MB per consumer by default (a 200,000-record backlog peaked
// above 1 GB RSS with 16 consumers). In the high-level consumer the limit is per consumer (its one
// queue), not per partition.

/** librdkafka consumer properties. */
export const CONFLUENT_FETCH_SETTINGS = {
  /** Prefetch per consumer, in KB (about 7,000 session-ended records, a fifth of a second at full speed). */
  'queued.max.messages.kbytes': 2048,
  /**
   * How long a partition waits to fetch again once the queue is full (librdkafka's default, 1 s,
   * left a consumer idle most of the time: it drained the queue in 0.3 s, then waited).
   */
  'fetch.queue.backoff.ms': 10,
  /** One fetch response, all partitions of a broker (must stay ≥ message.max.bytes, 1 MB). */
  'fetch.max.bytes': 2 * 1024 * 1024,
} as const

/**
 * librdkafka's `fetch.wait.max.ms` unless KafkaOptions.maxWaitMs sets one. librdkafka has one
 * Fetch in flight per broker: when it was sent for partitions without data (at start the retry
 * topic's offsets resolve first), the source partitions that become fetchable meanwhile wait for
 * that long poll to expire. With 500 ms every start lost half a second before its first record.
 */
export const CONFLUENT_FETCH_WAIT_MAX_MS = 100

/**
 * Messages per `consume` call. The engine batches up to DEV_STATS_BATCH_MAX_ROWS across calls;
 * a smaller take costs the same CPU per record as 1,000 (bench:clients) and holds fewer of the
 * binding's message objects at once: a 1,000,000-record backlog peaked 17 MB lower (bench:e2e).
 */
export const CONFLUENT_CONSUME_MAX = 100
