import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { jsonEachRowBodies } from './json-each-row.js'
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
    for (const [table, body] of jsonEachRowBodies(rows, ingestionTime)) await this.session.insertJsonEachRow(table, body)
    // After the funnel rows: progress never claims rows that are not stored yet.
    await this.session.insert('funnel_progress', stageProgressOf(rows, ingestionTime).map(progressRow))
  }
}
