import type { ConsumerEngine } from './engine/consumer-engine.js'
import type { StageFreshness } from './read/stage-freshness.js'

/** Runs every enabled consumer engine of the host; one engine per consumer group. */
export class IngestService {
  constructor(readonly engines: readonly ConsumerEngine[]) {}

  async start(): Promise<void> {
    for (const engine of this.engines) await engine.start()
  }

  async stop(): Promise<void> {
    await Promise.all(this.engines.map((e) => e.stop()))
  }

  engine(name: string): ConsumerEngine | undefined {
    return this.engines.find((e) => e.name === name)
  }

  /** A stage is live when its consumer runs here; its lag is that of its last flush. */
  readonly freshness: StageFreshness = (stage) => {
    const engine = this.engines.find((e) => e.handler.funnelStage === stage)
    return engine ? { enabled: true, lagSeconds: engine.stats.lastLagSeconds } : { enabled: false }
  }
}
