import type { NativeClient } from './confluent-native-client.js'
import type { NativeMessage } from './confluent-native-records.js'
import { CONFLUENT_CONSUME_MAX } from './fetch-settings.js'

/** An idle consumer is woken by librdkafka when its queue fills; this is only the fallback. */
const IDLE_POLL_MS = 500

export interface Fetched {
  /** The rebalance generation the consume started in: a later revocation makes it stale. */
  readonly generation: number
  readonly messages: readonly NativeMessage[]
}

/**
 * librdkafka's `consume(n)` without a worker thread blocked in it: it takes only what is queued
 * (the client's consume timeout is 0), and when nothing was, `idle` waits for librdkafka's
 * queue-non-empty callback (`signal`) or the fallback poll. Idle consumers cost next to nothing.
 */
export class NativeFetcher {
  private signalled = false
  private wake: (() => void) | undefined

  constructor(
    private readonly client: NativeClient,
    private readonly failed: (e: { message: string; isFatal?: boolean }) => void,
  ) {}

  fetch(generation: number): Promise<Fetched> {
    this.signalled = false
    return this.client.consume(CONFLUENT_CONSUME_MAX).then(
      (messages) => ({ generation, messages }),
      (e: { message: string; isFatal?: boolean }) => {
        this.failed(e)
        return { generation, messages: [] }
      },
    )
  }

  /** Resolves once librdkafka queued something since the last fetch, or after the fallback poll. */
  idle(): Promise<void> {
    if (this.signalled) return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.wake = undefined
        resolve()
      }
      const timer = setTimeout(done, IDLE_POLL_MS)
      this.wake = done
    })
  }

  signal(): void {
    this.signalled = true
    this.wake?.()
  }
}
