import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'

export interface StoredRow {
  readonly fact: FactRow
  readonly ingestionTime: Instant
  /** Insertion order, the tie-break ClickHouse's ReplacingMergeTree uses for equal versions. */
  readonly seq: number
}

/** The rows an in-memory store holds, shared by its writer and its readers. */
export class InMemoryTables {
  private readonly rows: StoredRow[] = []
  /** The developer-keyed serving tables (migration 0008), each row with its own IngestionTime. */
  readonly serving: { readonly views: ServingViewRow[]; readonly sessions: ServingSessionRow[] } = { views: [], sessions: [] }

  append(facts: readonly FactRow[], ingestionTime: Instant): void {
    for (const fact of facts) this.rows.push({ fact, ingestionTime, seq: this.rows.length })
  }

  of<T extends FactRow['table']>(table: T): (StoredRow & { fact: Extract<FactRow, { table: T }> })[] {
    return this.rows.filter((r): r is StoredRow & { fact: Extract<FactRow, { table: T }> } => r.fact.table === table)
  }

  get size(): number {
    return this.rows.length
  }
}

/** argMax over rows grouped by key: the row with the greatest version, later inserts winning ties. */
export const latestBy = <R extends StoredRow>(rows: readonly R[], key: (r: R) => string, version: (r: R) => number): Map<string, R> => {
  const latest = new Map<string, R>()
  for (const r of rows) {
    const k = key(r)
    const current = latest.get(k)
    if (!current || version(r) > version(current) || (version(r) === version(current) && r.seq > current.seq)) latest.set(k, r)
  }
  return latest
}
