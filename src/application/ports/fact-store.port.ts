import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'

/**
 * Append-only sink. `append` inserts every row or throws a StoreError; a partial insert is
 * harmless because a retried batch collapses by FactId / business key.
 */
export interface FactStore {
  append(rows: readonly FactRow[], ingestionTime: Instant): Promise<void>
}
