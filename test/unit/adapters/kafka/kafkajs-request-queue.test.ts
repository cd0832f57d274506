import { createRequire } from 'node:module'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { fixKafkaJsIdleTimerLoop } from '../../../../src/adapters/kafka/shared/kafkajs-request-queue.js'

// kafkajs' own RequestQueue (the instance its connections use), with the fix applied.
interface Queue {
  pending: { send(): void }[]
  inflight: Map<number, unknown>
  throttledUntil: number
  throttleCheckTimeoutId: NodeJS.Timeout | null
  fulfillRequest(r: { correlationId: number; payload: unknown; size: number }): void
  scheduleCheckPendingRequests(): void
  checkPendingRequests(): void
  destroy(): void
}
const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as new (o: object) => Queue
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }
const queue = (): Queue => new RequestQueue({ maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: false, clientId: 'test', broker: 'b:1', logger: silent })

describe("kafkajs' idle request-queue timer loop (kafkajs #1556)", () => {
  afterEach(() => vi.useRealTimers())

  it('is fixed in the installed kafkajs: an upgrade fails here until someone looks at it again', () => {
    expect(fixKafkaJsIdleTimerLoop()).toBe(true)
  })

  it('no timer is armed after a response when nothing waits to be sent (2.2.4 armed a 1 ms loop)', () => {
    fixKafkaJsIdleTimerLoop()
    const q = queue()
    q.fulfillRequest({ correlationId: 1, payload: null, size: 0 })
    expect(q.throttleCheckTimeoutId).toBeNull()
    q.scheduleCheckPendingRequests()
    expect(q.throttleCheckTimeoutId).toBeNull()
  })

  it('a request held back by client-side throttling is still sent when the throttle ends', () => {
    fixKafkaJsIdleTimerLoop()
    vi.useFakeTimers({ now: 1_000_000 })
    const q = queue()
    const send = vi.fn()
    q.throttledUntil = Date.now() + 200
    q.pending.push({ send, expectResponse: true, correlationId: 9 } as never)
    q.scheduleCheckPendingRequests()
    expect(q.throttleCheckTimeoutId).not.toBeNull()
    vi.advanceTimersByTime(199)
    expect(send).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(send).toHaveBeenCalledOnce()
    expect(q.pending).toHaveLength(0)
    expect(q.throttleCheckTimeoutId).toBeNull()
  })

  it('a request held back by the in-flight limit waits for a response, with the 10 ms check as a fallback', () => {
    fixKafkaJsIdleTimerLoop()
    vi.useFakeTimers({ now: 1_000_000 })
    const q = queue()
    q.inflight.set(7, {})
    const send = vi.fn()
    q.pending.push({ send, expectResponse: true, correlationId: 9 } as never)
    q.scheduleCheckPendingRequests()
    vi.advanceTimersByTime(50)
    expect(send).not.toHaveBeenCalled() // still one in flight (the limit is 1)
    q.inflight.delete(7)
    vi.advanceTimersByTime(10)
    expect(send).toHaveBeenCalledOnce()
    q.destroy()
  })
})
