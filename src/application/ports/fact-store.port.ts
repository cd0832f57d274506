import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { StoreTrace } from './tracer.port.js'

/**
 * Append-only sink. `append` inserts every row or throws a StoreError; a partial insert is
 * harmless because a retried batch collapses by FactId / business key. With `trace` (only while
 * tracing is on) each database call the append makes runs in `trace.call`.
 */
export interface FactStore {
  append(rows: readonly FactRow[], ingestionTime: Instant, trace?: StoreTrace): Promise<void>
}
