import type { BrokerRecord, OutboundRecord } from '../ports/broker.port.js'

/** The headers the engine adds to a dead letter (spec §2); everything else is the original record's. */
export const DLQ_HEADER_PREFIX = 'dlq-'

/** The dead-letter topic of a source topic (spec §2 default). */
export const deadLetterTopicOf = (sourceTopic: string): string => `${sourceTopic}.dlq`

/** A record read from a dead-letter topic, with what its dlq-* headers say. */
export interface DeadLetter {
  readonly record: BrokerRecord
  readonly reason: string
  readonly detail: string
  readonly sourceTopic: string
  readonly consumerGroup: string
  /** dlq-failed-at in epoch ms; null when the header is absent or not a date. */
  readonly failedAt: number | null
}

export const deadLetterOf = (record: BrokerRecord, fallbackSourceTopic: string): DeadLetter => {
  const h = record.headers
  const failedAt = Date.parse(h['dlq-failed-at'] ?? '')
  return {
    record,
    reason: h['dlq-reason'] ?? 'unknown',
    detail: h['dlq-detail'] ?? '',
    sourceTopic: h['dlq-source-topic'] ?? fallbackSourceTopic,
    consumerGroup: h['dlq-consumer-group'] ?? '',
    failedAt: Number.isNaN(failedAt) ? null : failedAt,
  }
}

/** The record as its producer sent it: original key, value and headers, to the source topic. */
export const originalRecord = (d: DeadLetter): OutboundRecord => ({
  topic: d.sourceTopic,
  key: d.record.key,
  value: d.record.value,
  headers: Object.fromEntries(Object.entries(d.record.headers).filter(([k]) => !k.startsWith(DLQ_HEADER_PREFIX))),
})

/** Which dead letters a command acts on; `since` inclusive, `until` exclusive (dlq-failed-at). */
export interface DeadLetterFilter {
  readonly reason?: string
  readonly since?: number
  readonly until?: number
}

export const matches = (d: DeadLetter, f: DeadLetterFilter): boolean =>
  (f.reason === undefined || d.reason === f.reason) &&
  (f.since === undefined || (d.failedAt !== null && d.failedAt >= f.since)) &&
  (f.until === undefined || (d.failedAt !== null && d.failedAt < f.until))
