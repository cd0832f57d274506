import type { ConsumerHealth } from './consumer-health.js'

export type StoreCheck = { readonly ok: true } | { readonly ok: false; readonly error: string }

export interface ReadinessInput {
  readonly now: number
  readonly consumers: readonly ConsumerHealth[]
  readonly store: StoreCheck
  /** A consumer retrying one batch for longer than this is not ready. */
  readonly maxRetryMs: number
}

export interface Readiness {
  readonly ready: boolean
  /** Why not, one line per cause; empty when ready. */
  readonly reasons: readonly string[]
}

// Both Kafka clients' wording for a topic the broker does not know (kafkajs / librdkafka).
const MISSING_TOPIC = /does not host this topic-partition|unknown topic|UNKNOWN_TOPIC/i

const consumerReasons = (c: ConsumerHealth, now: number, maxRetryMs: number): string[] => {
  if (c.joinedAt === undefined) return [`${c.name}: has not joined its consumer group`]
  if (c.retryingSince === undefined || !c.lastFailure) return []
  const { what, message } = c.lastFailure
  const seconds = Math.round((now - c.retryingSince) / 1000)
  if (what === 'publish' && MISSING_TOPIC.test(message)) return [`${c.name}: publish fails, a topic is missing: ${message}`]
  if (now - c.retryingSince > maxRetryMs) return [`${c.name}: ${what} has been failing for ${seconds} s: ${message}`]
  return []
}

/**
 * Ready = every enabled consumer joined its group, none has been retrying one batch for longer
 * than `maxRetryMs` (a publish to a vanished topic counts at once: it cannot heal by itself), and
 * the store answers.
 */
export const readiness = ({ now, consumers, store, maxRetryMs }: ReadinessInput): Readiness => {
  const reasons = consumers.flatMap((c) => consumerReasons(c, now, maxRetryMs))
  if (!store.ok) reasons.push(`store: ${store.error}`)
  return { ready: reasons.length === 0, reasons }
}
