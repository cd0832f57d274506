import type { Logger } from '../../../application/ports/logger.port.js'
import type { KafkaSecurity } from './kafka-security.js'

/** Settings shared by both Kafka adapters. */
export interface KafkaOptions {
  readonly brokers: readonly string[]
  readonly clientId: string
  /** TLS and SASL; plaintext when absent. */
  readonly security?: KafkaSecurity
  /** Group session timeout: how long a crashed member keeps its partitions (broker minimum 6 s). */
  readonly sessionTimeoutMs?: number
  /**
   * Longest fetch wait; also bounds how long `stop` waits for a fetch to return. A fetch returns
   * as soon as a record arrives, so this is what an idle consumer costs: one fetch per wait.
   */
  readonly maxWaitMs?: number
  /** `run` resolves at the first assignment or after this long. */
  readonly joinTimeoutMs?: number
  /** Where the clients' own error lines go (routine rebalance chatter is dropped). */
  readonly logger?: Logger
}

export const DEFAULT_SESSION_TIMEOUT_MS = 30_000
/**
 * kafkajs' fetch wait: 2 s. An idle consumer fetches once per wait (sixteen consumers, most of
 * them idle: 500 ms cost an idle service 7.4 % of a core, 2 s 3.3 %); a record that arrives
 * meanwhile is returned at once, so only `stop` (and a pause's wait) can take up to this long.
 * librdkafka's is CONFLUENT_FETCH_WAIT_MAX_MS (its one Fetch per broker delays a start).
 */
export const DEFAULT_MAX_WAIT_MS = 2000
export const DEFAULT_JOIN_TIMEOUT_MS = 30_000
export const HEARTBEAT_EVERY_MS = 1000
