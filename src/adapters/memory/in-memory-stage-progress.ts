import type { StageProgressReader } from '../../application/ports/stage-progress.port.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { FunnelStage } from '../../domain/funnel.js'
import { newestLags, stageProgressOf } from '../../domain/stage-progress.js'
import type { InMemoryTables } from './in-memory-tables.js'

/** The progress the ClickHouse store writes, derived from the stored funnel rows per insert moment. */
export class InMemoryStageProgressReader implements StageProgressReader {
  constructor(private readonly tables: InMemoryTables) {}

  async newestLags(): Promise<ReadonlyMap<FunnelStage, number>> {
    const byInsert = new Map<number, FactRow[]>()
    for (const r of this.tables.of('funnel_daily')) byInsert.set(r.ingestionTime, [...(byInsert.get(r.ingestionTime) ?? []), r.fact])
    return newestLags([...byInsert].flatMap(([at, facts]) => stageProgressOf(facts, at)))
  }
}
