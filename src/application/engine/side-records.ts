import type { Instant } from '../../domain/instant.js'
import type { Poison } from '../../domain/poison.js'
import type { BrokerRecord, OutboundRecord } from '../ports/broker.port.js'

const RETRY_PREFIX = 'retry-'
export const RETRY_ATTEMPT = 'retry-attempt'
export const RETRY_DUE_AT = 'retry-due-at'
export const RETRY_ORIGIN_TOPIC = 'retry-origin-topic'
export const RETRY_ORIGIN_PARTITION = 'retry-origin-partition'
export const RETRY_ORIGIN_OFFSET = 'retry-origin-offset'
/** On a copy whose attempts are spent: when its parking window closed (record-step, GapEvidence). */
export const RETRY_WINDOW_END = 'retry-window-end'
export const DLQ_REASON = 'dlq-reason'

export interface Origin {
  readonly topic: string
  readonly partition: string
  readonly offset: string
}

/** Where a record first arrived: itself, or for a parked copy the source record it stands for. */
export const originOf = (r: BrokerRecord): Origin => ({
  topic: r.headers[RETRY_ORIGIN_TOPIC] ?? r.topic,
  partition: r.headers[RETRY_ORIGIN_PARTITION] ?? String(r.partition),
  offset: r.headers[RETRY_ORIGIN_OFFSET] ?? r.offset,
})

/** Parking attempts already made for this record (0 for a record from its source topic). */
export const attemptOf = (r: BrokerRecord): number => {
  const n = Number(r.headers[RETRY_ATTEMPT] ?? '0')
  return Number.isInteger(n) && n >= 0 ? n : 0
}

export const dueAtOf = (r: BrokerRecord): Instant => {
  const due = Date.parse(r.headers[RETRY_DUE_AT] ?? '')
  return Number.isNaN(due) ? 0 : due
}

/** When this copy's parking window closed: its own due time, or the first one once its attempts were spent. */
export const windowEndOf = (r: BrokerRecord): Instant => {
  const end = Date.parse(r.headers[RETRY_WINDOW_END] ?? '')
  return Number.isNaN(end) ? dueAtOf(r) : end
}

/** The headers the producer sent, without our parking bookkeeping. */
const originalHeaders = (r: BrokerRecord): Record<string, string> =>
  Object.fromEntries(Object.entries(r.headers).filter(([k]) => !k.startsWith(RETRY_PREFIX)))

export const deadLetterRecord = (
  r: BrokerRecord,
  p: Poison,
  deadLetterTopic: string,
  groupId: string,
  now: Instant,
): OutboundRecord => {
  const origin = originOf(r)
  return {
    topic: deadLetterTopic,
    key: r.key,
    value: r.value,
    headers: {
      ...originalHeaders(r),
      [DLQ_REASON]: p.reason,
      'dlq-detail': p.detail,
      'dlq-source-topic': origin.topic,
      'dlq-source-partition': origin.partition,
      'dlq-source-offset': origin.offset,
      'dlq-consumer-group': groupId,
      'dlq-failed-at': new Date(now).toISOString(),
    },
  }
}

export const parkedRecord = (r: BrokerRecord, attempt: number, dueAt: Instant, retryTopic: string, windowEnd?: Instant): OutboundRecord => {
  const origin = originOf(r)
  return {
    topic: retryTopic,
    key: r.key,
    value: r.value,
    headers: {
      ...originalHeaders(r),
      [RETRY_ATTEMPT]: String(attempt),
      [RETRY_DUE_AT]: new Date(dueAt).toISOString(),
      [RETRY_ORIGIN_TOPIC]: origin.topic,
      [RETRY_ORIGIN_PARTITION]: origin.partition,
      [RETRY_ORIGIN_OFFSET]: origin.offset,
      ...(windowEnd === undefined ? {} : { [RETRY_WINDOW_END]: new Date(windowEnd).toISOString() }),
    },
  }
}
