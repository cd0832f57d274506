import type { Registry } from 'prom-client'
import type { MemoryBudget } from '../application/engine/memory-budget.js'
import type { IngestService } from '../application/ingest-service.js'
import { consumerHealthOf, laggingConsumersOf } from '../application/ops/consumer-health.js'
import { LagMonitor, type LagObserver } from '../application/ops/lag-monitor.js'
import { readiness, type Readiness, type StoreCheck } from '../application/ops/readiness.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { ConsumerLagReader } from '../application/ports/consumer-lag.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { settleWithin } from '../application/settle-within.js'
import { registerOpsGauges } from '../adapters/observability/prom-ops-gauges.js'

const STORE_PING_TIMEOUT_MS = 3000

const storeCheck = async (probe: () => Promise<void>): Promise<StoreCheck> => {
  try {
    await settleWithin(probe(), STORE_PING_TIMEOUT_MS, () => {
      throw new Error(`no answer within ${STORE_PING_TIMEOUT_MS} ms`)
    })
    return { ok: true }
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) }
  }
}

export interface IngestOps {
  readiness(): Promise<Readiness>
  /** Starts reading consumer lag every `lagIntervalMs`; stopped by `stop`. */
  start(): void
  stop(): Promise<void>
}

/**
 * The operations side of one ingest instance: the gauges on its registry (consumer lag, time since
 * the last commit, parked, retrying, joined), the lag monitor behind them, and the readiness rule.
 */
export const ingestOps = (o: {
  service: IngestService
  registry: Registry | undefined
  lagReader: (() => ConsumerLagReader) | undefined
  probe: () => Promise<void>
  clock: Clock
  logger: Logger
  lagIntervalMs: number
  /** This process runs its host's periodic passes (the `dev_stats_periodic_passes_runner` gauge). */
  runsPeriodicPasses: boolean
  readyMaxRetrySeconds: number
  /** Told of every lag read (the dimension progress parked records wait for). */
  lagObserver: LagObserver
  budget: MemoryBudget
}): IngestOps => {
  let monitor: LagMonitor | undefined
  let last: LagMonitor | undefined // its figures stay on the gauge after stop
  if (o.registry) {
    registerOpsGauges(o.registry, {
      now: () => o.clock.now(),
      consumers: () => consumerHealthOf(o.service),
      lagOf: (c) => last?.lagOf(c) ?? [],
      memory: () => ({ budgetBytes: o.budget.capacityBytes, usedBytes: o.budget.used }),
      runsPeriodicPasses: o.runsPeriodicPasses,
    })
  }
  return {
    readiness: async () =>
      readiness({ now: o.clock.now(), consumers: consumerHealthOf(o.service), store: await storeCheck(o.probe), maxRetryMs: o.readyMaxRetrySeconds * 1000 }),
    start: () => {
      if (!o.lagReader || monitor) return
      monitor = last = new LagMonitor(o.lagReader(), laggingConsumersOf(o.service), o.logger, o.lagIntervalMs, { clock: o.clock, observer: o.lagObserver })
      monitor.start()
    },
    stop: async () => {
      const m = monitor
      monitor = undefined
      await m?.stop()
    },
  }
}
