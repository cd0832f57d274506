/** Stable reason codes carried by a dead-letter record's `dlq-reason` header. */
export type PoisonReason =
  | 'undecodable'
  | 'missing-message-id'
  | 'empty-session-id'
  | 'empty-id'
  | 'negative-duration'
  | 'default-created-at'
  | 'created-at-in-future'
  | 'out-of-range'
  | 'dimension-gap'
  | 'store-rejected'

export interface Poison {
  readonly reason: PoisonReason
  readonly detail: string
}

export const poison = (reason: PoisonReason, detail: string): Poison => ({ reason, detail })
