import type { FactStore } from '../../application/ports/fact-store.port.js'
import { StoreError } from '../../application/ports/store-error.js'
import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { InMemoryTables } from './in-memory-tables.js'

/** Append-only store in memory; `down` simulates an outage (a retriable failure). */
export class InMemoryFactStore implements FactStore {
  down = false
  inserts = 0

  constructor(readonly tables: InMemoryTables) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant): Promise<void> {
    if (this.down) throw new StoreError('in-memory store is down', true, 'UNAVAILABLE')
    this.inserts++
    this.tables.append(rows, ingestionTime)
  }
}
