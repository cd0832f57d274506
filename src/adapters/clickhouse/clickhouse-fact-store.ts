import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { toTableRow } from './clickhouse-row.mapper.js'
import { progressRow } from './clickhouse-stage-progress.js'
import { stageProgressOf } from '../../domain/stage-progress.js'

/**
 * Append-only: one JSONEachRow insert per target table, never an update or delete. A failure
 * throws a StoreError; a retried batch re-inserts rows that already landed, which collapse on
 * read (argMax by IngestionTime per FactId/SessionId, uniq per business key).
 */
export class ClickHouseFactStore implements FactStore {
  constructor(private readonly session: ClickHouseSession) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant): Promise<void> {
    const byTable = new Map<string, Record<string, unknown>[]>()
    for (const fact of rows) {
      const { table, values } = toTableRow(fact, ingestionTime)
      const group = byTable.get(table) ?? []
      group.push(values)
      byTable.set(table, group)
    }
    for (const [table, values] of byTable) await this.session.insert(table, values)
    // After the funnel rows: progress never claims rows that are not stored yet.
    await this.session.insert('funnel_progress', stageProgressOf(rows, ingestionTime).map(progressRow))
  }
}
