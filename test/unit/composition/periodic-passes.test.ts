import { afterEach, describe, expect, it, vi } from 'vitest'
import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import type { LagObserver } from '../../../src/application/ops/lag-monitor.js'
import type { ConsumerLagReader, PartitionLag } from '../../../src/application/ports/consumer-lag.port.js'
import { LinkRetention } from '../../../src/application/serving/link-retention.js'
import { ServingReconciliation } from '../../../src/application/serving/serving-reconciliation.js'
import { loadConfig } from '../../../src/composition/config.js'
import { createIngestProcess, type PeriodicPasses } from '../../../src/composition/create-dev-stats-ingest.js'

// Issue 64, item 4: of the processes of one host (`start --workers N`), one runs the periodic
// passes — the reconciliation, the link retention, the lag reads — and tells its lag reads on; the
// others run none of them. The memory store has neither link tables nor a reconciliation: given
// here, as a ClickHouse store has them, to see which process starts them.
vi.mock('../../../src/composition/store.factory.js', async (original) => {
  const real = await original<typeof import('../../../src/composition/store.factory.js')>()
  return {
    ...real,
    storeFor: (...args: Parameters<typeof real.storeFor>) => ({
      ...real.storeFor(...args),
      linkPartitions: { list: async () => [], drop: async () => undefined },
      reconcile: { gaps: {}, serving: {} },
    }),
  }
})

const LAG: readonly PartitionLag[] = [{ topic: 't', partition: 0, end: 5, committed: 2, lag: 3 }]

const processOf = (passes: PeriodicPasses) => {
  const reads: string[] = []
  const reader: ConsumerLagReader = { lagOf: async (group) => (reads.push(group), LAG), close: async () => undefined }
  const ingest = createIngestProcess(
    { config: loadConfig({ DEV_STATS_LOG_LEVEL: 'silent', DEV_STATS_LAG_INTERVAL_MS: '20' }), ports: { broker: new InMemoryBroker(), lagReader: () => reader } },
    passes,
  )
  const text = async () => ingest.registry.metrics()
  return { ingest, reads, text }
}

describe('the periodic passes of one host', () => {
  const stops: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop()
    vi.restoreAllMocks()
  })

  it('run where `here`: reconciliation and link retention started, lag read and told on, the runner gauge 1', async () => {
    const retention = vi.spyOn(LinkRetention.prototype, 'start')
    const reconciliation = vi.spyOn(ServingReconciliation.prototype, 'start')
    const told: string[] = []
    const lagReads: LagObserver = { observed: (consumer) => void told.push(consumer) }
    const p = processOf({ here: true, lagReads })
    stops.push(() => p.ingest.stop())
    await p.ingest.start()
    await vi.waitFor(() => expect(told).toContain('session-ended'))
    expect(retention).toHaveBeenCalledTimes(1)
    expect(reconciliation).toHaveBeenCalledTimes(1)
    expect(p.reads.length).toBeGreaterThan(0)
    const text = await p.text()
    expect(text).toMatch(/^dev_stats_consumer_lag_records\{consumer="session-ended",topic="t",partition="0"\} 3$/m)
    expect(text).toMatch(/^dev_stats_periodic_passes_runner 1$/m)
  })

  it('run nowhere else: none started, no lag read of its own, the runner gauge 0', async () => {
    const retention = vi.spyOn(LinkRetention.prototype, 'start')
    const reconciliation = vi.spyOn(ServingReconciliation.prototype, 'start')
    const p = processOf({ here: false })
    stops.push(() => p.ingest.stop())
    await p.ingest.start()
    await new Promise((r) => setTimeout(r, 100))
    expect(retention).not.toHaveBeenCalled()
    expect(reconciliation).not.toHaveBeenCalled()
    expect(p.reads).toEqual([])
    const text = await p.text()
    expect(text).not.toMatch(/^dev_stats_consumer_lag_records\{/m)
    expect(text).toMatch(/^dev_stats_periodic_passes_runner 0$/m)
  })
})
