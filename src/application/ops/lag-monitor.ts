import type { Instant } from '../../domain/instant.js'
import type { Clock } from '../ports/clock.port.js'
import type { ConsumerLagReader, PartitionLag } from '../ports/consumer-lag.port.js'
import type { Logger } from '../ports/logger.port.js'
import { settleWithin } from '../settle-within.js'

export interface LaggingConsumer {
  readonly name: string
  readonly groupId: string
  readonly topics: readonly string[]
}

/** Told of every successful read (DimensionProgressTracker); `readFrom`: when the read started. */
export interface LagObserver {
  observed(consumer: string, lags: readonly PartitionLag[], readFrom: Instant): void
}

/**
 * stop() waits this long at most for the pass in flight, then as long for the reader to close: on a
 * silent broker one read takes the client's request timeout (kafkajs: 30 s) and a pass one per
 * consumer, which held a SIGTERM for minutes.
 */
export const LAG_STOP_WAIT_MS = 5000

/**
 * Refreshes every consumer's per-partition lag from the broker every `intervalMs`. A failed read
 * keeps the previous figures (a warning says so): stale lag is better than none for the alert
 * "not committing while it has lag".
 */
export class LagMonitor {
  private readonly latest = new Map<string, readonly PartitionLag[]>()
  private timer: NodeJS.Timeout | undefined
  private running: Promise<void> | undefined
  private stopped = false

  constructor(
    private readonly reader: ConsumerLagReader,
    private readonly consumers: readonly LaggingConsumer[],
    private readonly logger: Logger,
    private readonly intervalMs: number,
    private readonly notify?: { readonly clock: Clock; readonly observer: LagObserver },
    private readonly stopWaitMs = LAG_STOP_WAIT_MS,
  ) {}

  start(): void {
    void this.refresh()
    this.timer = setInterval(() => void this.refresh(), this.intervalMs)
  }

  async stop(): Promise<void> {
    clearInterval(this.timer)
    this.stopped = true
    const quietly = (work: Promise<unknown>) => settleWithin(work.catch(() => undefined), this.stopWaitMs, () => undefined)
    if (this.running) await quietly(this.running)
    await quietly(this.reader.close())
  }

  lagOf(consumer: string): readonly PartitionLag[] {
    return this.latest.get(consumer) ?? []
  }

  /** One pass over every consumer; a pass still running is joined, not doubled. */
  refresh(): Promise<void> {
    if (this.stopped) return Promise.resolve()
    this.running ??= this.readAll().finally(() => (this.running = undefined))
    return this.running
  }

  private async readAll(): Promise<void> {
    for (const c of this.consumers) {
      if (this.stopped) return
      try {
        const readFrom = this.notify?.clock.now() ?? 0
        const lags = await this.reader.lagOf(c.groupId, c.topics)
        this.latest.set(c.name, lags)
        this.notify?.observer.observed(c.name, lags, readFrom)
      } catch (e) {
        this.logger.warn({ consumer: c.name, err: String(e) }, 'consumer lag not refreshed')
      }
    }
  }
}

/** Resolves when `work` settles or after `ms`, whichever comes first. */
