import { Gauge, type Registry } from 'prom-client'
import type { ConsumerHealth } from '../../application/ops/consumer-health.js'
import { secondsSinceCommit } from '../../application/ops/consumer-health.js'
import type { PartitionLag } from '../../application/ports/consumer-lag.port.js'

/** What the gauges read at each scrape. */
export interface OpsView {
  now(): number
  consumers(): readonly ConsumerHealth[]
  lagOf(consumer: string): readonly PartitionLag[]
  /** The process's memory budget for held records: bytes, and bytes in use. */
  memory(): { readonly budgetBytes: number; readonly usedBytes: number }
  /** This process runs its host's periodic passes: the reconciliation, the link retention, the lag reads. */
  readonly runsPeriodicPasses: boolean
}

/**
 * Gauges computed at scrape time from the running service: consumer lag per partition, time
 * since the last commit, parked records held in memory, time spent retrying, group membership.
 */
export const registerOpsGauges = (registry: Registry, view: OpsView): void => {
  const gauge = <L extends string>(name: string, help: string, labelNames: L[], fill: (g: Gauge<L>) => void) =>
    new Gauge<L>({
      name, help, labelNames, registers: [registry],
      collect() {
        this.reset()
        fill(this)
      },
    })
  gauge('dev_stats_consumer_lag_records', 'Records not yet committed by the group (log end offset - committed offset)', ['consumer', 'topic', 'partition'], (g) => {
    for (const c of view.consumers()) {
      for (const p of view.lagOf(c.name)) g.set({ consumer: c.name, topic: p.topic, partition: String(p.partition) }, p.lag)
    }
  })
  gauge('dev_stats_seconds_since_last_commit', 'Seconds since the consumer last committed offsets (since it joined, before the first commit)', ['consumer'], (g) => {
    const now = view.now()
    for (const c of view.consumers()) {
      const s = secondsSinceCommit(c, now)
      if (s !== undefined) g.set({ consumer: c.name }, s)
    }
  })
  gauge('dev_stats_parked_in_memory', 'Parked records read back and held in memory until they are due', ['consumer'], (g) => {
    for (const c of view.consumers()) g.set({ consumer: c.name }, c.parkedInMemory)
  })
  gauge('dev_stats_retrying_seconds', 'Seconds the current insert/publish/lookup has been failing (0 when not retrying)', ['consumer'], (g) => {
    const now = view.now()
    for (const c of view.consumers()) g.set({ consumer: c.name }, c.retryingSince === undefined ? 0 : Math.max(0, (now - c.retryingSince) / 1000))
  })
  gauge('dev_stats_memory_budget_bytes', 'Bytes of records this process may hold (DEV_STATS_MEMORY_BUDGET_MB)', [], (g) => g.set(view.memory().budgetBytes))
  gauge('dev_stats_memory_used_bytes', 'Bytes of records held now: accepted and not yet committed, parked copies waiting', [], (g) => g.set(view.memory().usedBytes))
  gauge('dev_stats_periodic_passes_runner', "1 in the process that runs the host's periodic passes (reconciliation, link retention, lag reads), 0 in the others of start --workers N", [], (g) => g.set(view.runsPeriodicPasses ? 1 : 0))
  gauge('dev_stats_consumer_joined', '1 while the consumer is a member of its group', ['consumer'], (g) => {
    for (const c of view.consumers()) g.set({ consumer: c.name }, c.joinedAt === undefined ? 0 : 1)
  })
}
