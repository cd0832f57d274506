export interface BackoffPolicy {
  readonly initialMs: number
  readonly maxMs: number
}

/** 1 s, 2 s, 4 s … capped: delay before attempt `attempt + 1` (attempt counts from 1). */
export const backoffDelay = (policy: BackoffPolicy, attempt: number): number =>
  Math.min(policy.maxMs, policy.initialMs * 2 ** Math.max(0, Math.min(attempt - 1, 30)))

