import type { StageProgressReader } from '../../application/ports/stage-progress.port.js'
import { FUNNEL_STAGES, type FunnelStage } from '../../domain/funnel.js'
import type { StageProgress } from '../../domain/stage-progress.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { dateTimeText } from './datetime-text.js'
import { sql } from './sql-fragment.js'

export const progressRow = (p: StageProgress): Record<string, unknown> => ({ Stage: p.stage, Minute: dateTimeText(p.minute), LagSeconds: p.lagSeconds })

/** newestLags in SQL: per stage the greatest lag of its newest minute (tuple order: minute, then lag). Never FINAL. */
export class ClickHouseStageProgressReader implements StageProgressReader {
  constructor(private readonly session: ClickHouseSession) {}

  async newestLags(): Promise<ReadonlyMap<FunnelStage, number>> {
    const rows = await this.session.select<{ Stage: string; lag: number | string }>(sql`
      SELECT Stage, argMax(LagSeconds, tuple(Minute, LagSeconds)) AS lag
      FROM ${(await this.session.readTables()).table('funnel_progress')}
      GROUP BY Stage`)
    const known = new Set<string>(FUNNEL_STAGES)
    return new Map(rows.filter((r) => known.has(r.Stage)).map((r) => [r.Stage as FunnelStage, Number(r.lag)]))
  }
}
