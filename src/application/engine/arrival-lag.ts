import type { Instant } from '../../domain/instant.js'
import type { BrokerRecord } from '../ports/broker.port.js'

/**
 * Seconds from each source record's arrival in Kafka (its broker timestamp) to `now`, when its
 * effects became durable. Unlike the EventTime lag, a long session does not inflate it. Parked
 * copies from the retry topic are left out: their timestamp is when they were parked, and their
 * deliberate delay is what the dimension-gap alert watches.
 */
export const arrivalLagsOf = (settled: readonly BrokerRecord[], sourceTopic: string, now: Instant): number[] => {
  const lags: number[] = []
  for (const r of settled) if (r.topic === sourceTopic && r.timestamp !== undefined) lags.push(Math.max(0, (now - r.timestamp) / 1000))
  return lags
}
