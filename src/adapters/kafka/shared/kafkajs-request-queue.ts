import { createRequire } from 'node:module'

// kafkajs 2.2.4 (the last release) keeps a 1 ms timer loop running on every broker connection
// once it has had a response: `scheduleCheckPendingRequests` computes `throttledUntil - now`,
// which is negative when nothing is throttled (throttledUntil starts at -1), and arms a timer for
// it even when no request is pending; that timer's check re-arms it. With 16 consumers (each its
// own connections), the producer and the lag reader's admin, an idle service spent about a tenth
// of a core in these timers (kafkajs issue #1556, pull request #1667, not released). The fix:
// arm the timer only for requests that wait to be sent; a response or the next push checks again.

interface RequestQueue {
  pending: readonly unknown[]
  throttledUntil: number
  throttleCheckTimeoutId: NodeJS.Timeout | null
  checkPendingRequests(): void
}

/** kafkajs' own interval for requests held back by the in-flight limit (requestQueue/index.js). */
const CHECK_PENDING_REQUESTS_INTERVAL = 10

/** The version whose RequestQueue this replaces a method of; any other is left as it is. */
export const PATCHED_KAFKAJS_VERSION = '2.2.4'

export function scheduleCheckPendingRequests(this: RequestQueue): void {
  if (this.throttleCheckTimeoutId || this.pending.length === 0) return
  const untilUnthrottled = this.throttledUntil - Date.now()
  this.throttleCheckTimeoutId = setTimeout(() => {
    this.throttleCheckTimeoutId = null
    this.checkPendingRequests()
  }, untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL)
}

const require = createRequire(import.meta.url)

/**
 * Replaces the method on kafkajs' RequestQueue (the module instance kafkajs itself loads), once.
 * Returns whether the installed kafkajs is the version it is meant for (a unit test holds it so,
 * so that an upgrade gets looked at rather than silently patched or not).
 */
export const fixKafkaJsIdleTimerLoop = (): boolean => {
  const { version } = require('kafkajs/package.json') as { version: string }
  if (version !== PATCHED_KAFKAJS_VERSION) return false
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as { prototype: { scheduleCheckPendingRequests: unknown } }
  RequestQueue.prototype.scheduleCheckPendingRequests = scheduleCheckPendingRequests
  return true
}
