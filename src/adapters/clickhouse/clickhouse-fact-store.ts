import type { FactStore } from '../../application/ports/fact-store.port.js'
import type { DbCall, StoreTrace } from '../../application/ports/tracer.port.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { DB_SYSTEM_NAME_VALUE_CLICKHOUSE } from '../observability/semconv.js'
import { BodyPool } from './body-pool.js'
import { jsonEachRowBodies } from './json-each-row.js'
import { progressRow } from './clickhouse-stage-progress.js'
import { stageProgressOf } from '../../domain/stage-progress.js'

/**
 * Append-only: one JSONEachRow insert per target table, never an update or delete. A failure
 * throws a StoreError; a retried batch re-inserts rows that already landed, which collapse on
 * read (argMax by IngestionTime per FactId/SessionId, uniq per business key). With a trace, each
 * insert is a database span (table, row count; never a value).
 */
export class ClickHouseFactStore implements FactStore {
  private readonly bodies = new BodyPool()

  constructor(private readonly session: ClickHouseSession) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant, trace?: StoreTrace): Promise<void> {
    for (const [table, body] of jsonEachRowBodies(rows, ingestionTime, this.bodies)) {
      const insert = () => this.session.insertJsonEachRow(table, body.bytes)
      await (trace ? trace.call(this.insertCall(table, body.lines), insert) : insert())
      // Returned: the server has read the whole body. A failed insert's buffer is left to the GC.
      this.bodies.give(body.bytes)
    }
    // After the funnel rows: progress never claims rows that are not stored yet.
    const progress = stageProgressOf(rows, ingestionTime).map(progressRow)
    const insert = () => this.session.insert('funnel_progress', progress)
    await (trace && progress.length > 0 ? trace.call(this.insertCall('funnel_progress', progress.length), insert) : insert())
  }

  private insertCall(table: string, rows: number): DbCall {
    const { server } = this.session.options
    return {
      system: DB_SYSTEM_NAME_VALUE_CLICKHOUSE,
      operation: 'INSERT',
      namespace: this.session.database,
      collection: table,
      rows,
      queryText: this.session.insertStatement(table),
      ...(server ? { serverAddress: server.address, serverPort: server.port } : {}),
    }
  }
}
