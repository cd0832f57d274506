import type { PoisonReason } from '../../src/domain/poison.js'

/**
 * How the soak spoils a record, and the dlq-reason the rules of docs/ingest-rules.md give it.
 * `payload` spoils the payload; `raw` replaces the whole value; `noId` drops the message id.
 */
export interface Spoiler {
  readonly reason: PoisonReason
  readonly payload?: (p: Record<string, unknown>) => Record<string, unknown>
  readonly raw?: string
  readonly noId?: boolean
}

export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000'
const DEFAULT_TIME = '0001-01-01T00:00:00+00:00'
/** Far enough ahead that it is still more than 1 h ahead when a late consumer reads it. */
const future = (now: number) => new Date(now + 6 * 3_600_000).toISOString()
const BEFORE_1970 = '1960-01-01T00:00:00Z'
const AFTER_2106 = '2200-01-01T00:00:00Z'

const set = (field: string, value: unknown) => (p: Record<string, unknown>) => ({ ...p, [field]: value })
const without = (field: string) => (p: Record<string, unknown>) => {
  const { [field]: _, ...rest } = p
  return rest
}

/** Every topic: not JSON, no message id, a required field missing. */
const common = (requiredField: string): Spoiler[] => [
  { reason: 'undecodable', raw: '{"broken' },
  { reason: 'missing-message-id', noId: true },
  { reason: 'undecodable', payload: without(requiredField) },
]

/** The spoilers of each kind of topic; `now` is the production time. */
export const spoilersOf = (kind: TopicKind, now: number, keyField = ''): Spoiler[] => {
  switch (kind) {
    case 'session':
      return [
        ...common('AnonymousId'),
        { reason: 'empty-session-id', payload: set('SessionId', EMPTY_GUID) },
        { reason: 'negative-duration', payload: set('DurationSeconds', -5) },
        { reason: 'default-created-at', payload: set('CreatedAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('CreatedAt', future(now)) },
        { reason: 'out-of-range', payload: set('LastActivityAt', AFTER_2106) },
      ]
    case 'view-ended':
      return [
        ...common('ViewedAt'),
        { reason: 'empty-id', payload: set('PropertyObjectViewId', EMPTY_GUID) },
        { reason: 'negative-duration', payload: set('DurationSeconds', -1) },
        { reason: 'default-created-at', payload: set('ViewedAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('ViewedAt', future(now)) },
        { reason: 'out-of-range', payload: set('DurationSeconds', 5_000_000_000) },
      ]
    case 'action':
      return [
        ...common('PropertyObjectViewId'),
        { reason: 'empty-id', payload: set('PropertyObjectId', EMPTY_GUID) },
        { reason: 'default-created-at', payload: set('ViewedAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('ViewedAt', future(now)) },
        { reason: 'out-of-range', payload: set('ViewedAt', BEFORE_1970) },
      ]
    case 'funnel':
      return [
        ...common('OccurredAt'),
        { reason: 'empty-id', payload: set(keyField, EMPTY_GUID) },
        { reason: 'default-created-at', payload: set('OccurredAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('OccurredAt', future(now)) },
        { reason: 'out-of-range', payload: set('OccurredAt', BEFORE_1970) },
      ]
    case 'lead':
      return [
        ...common('LeadId'),
        { reason: 'empty-id', payload: set('LeadId', EMPTY_GUID) },
        { reason: 'default-created-at', payload: set('CreatedAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('CreatedAt', future(now)) },
        { reason: 'out-of-range', payload: set('CreatedAt', BEFORE_1970) },
      ]
    case 'upper-dim':
      return [
        ...common('UpsertedAt'),
        { reason: 'empty-id', payload: set('Id', EMPTY_GUID) },
        { reason: 'default-created-at', payload: set('UpsertedAt', DEFAULT_TIME) },
        { reason: 'created-at-in-future', payload: set('UpsertedAt', future(now)) },
      ]
    case 'po-dim':
      return [
        ...common('LayoutId'),
        { reason: 'empty-id', payload: set('Id', EMPTY_GUID) },
        { reason: 'out-of-range', payload: set('UpsertedAt', AFTER_2106) },
      ]
  }
}

export type TopicKind = 'session' | 'view-ended' | 'action' | 'funnel' | 'lead' | 'upper-dim' | 'po-dim'
