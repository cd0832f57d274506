import type { FactRow } from '../../domain/fact-row.js'
import type { Instant } from '../../domain/instant.js'
import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { StoredDayRecord } from '../../application/ports/day-records.port.js'

export interface StoredRow {
  readonly fact: FactRow
  readonly ingestionTime: Instant
  /** Insertion order, the tie-break ClickHouse's ReplacingMergeTree uses for equal versions. */
  readonly seq: number
}

/** A stored row of one table. */
export type StoredOf<T extends FactRow['table']> = StoredRow & { fact: Extract<FactRow, { table: T }> }
type ViewRow = StoredOf<'property_object_view_facts'>
type SessionRow = StoredOf<'session_facts'>

/**
 * The rows an in-memory store holds, shared by its writer and its readers. View and session facts
 * are also indexed by the ids the serving step looks up (as the link tables' ORDER BY does), so a
 * lookup costs the rows of its ids, not the store's.
 */
export class InMemoryTables {
  private readonly rows: StoredRow[] = []
  private readonly viewsById = new Map<string, ViewRow[]>()
  private readonly viewsBySession = new Map<string, ViewRow[]>()
  private readonly sessionsById = new Map<string, SessionRow[]>()
  /** The developer-keyed serving tables (migration 0008), each row with its own IngestionTime. */
  readonly serving: { readonly views: ServingViewRow[]; readonly sessions: ServingSessionRow[] } = { views: [], sessions: [] }
  /** The serving rows' per-day write counts (migration 0012's developer_day_writes), by `source|developer|day`. */
  readonly dayWrites = new Map<string, number>()
  /** The day records read models computed (migration 0012's developer_day_records), by `developer|day`. */
  readonly dayRecords = new Map<string, StoredDayRecord>()

  append(facts: readonly FactRow[], ingestionTime: Instant): void {
    for (const fact of facts) {
      const stored = { fact, ingestionTime, seq: this.rows.length }
      this.rows.push(stored)
      if (fact.table === 'property_object_view_facts') {
        indexUnder(this.viewsById, fact.row.propertyObjectViewId, stored as ViewRow)
        indexUnder(this.viewsBySession, fact.row.sessionId, stored as ViewRow)
      } else if (fact.table === 'session_facts') indexUnder(this.sessionsById, fact.row.sessionId, stored as SessionRow)
    }
  }

  /** The stored facts of this view, in insertion order. */
  viewFactsOf(viewId: string): readonly StoredOf<'property_object_view_facts'>[] {
    return this.viewsById.get(viewId) ?? []
  }

  /** The stored view facts naming this session, in insertion order. */
  viewFactsNaming(sessionId: string): readonly StoredOf<'property_object_view_facts'>[] {
    return this.viewsBySession.get(sessionId) ?? []
  }

  /** The stored facts of this session, in insertion order. */
  sessionFactsOf(sessionId: string): readonly StoredOf<'session_facts'>[] {
    return this.sessionsById.get(sessionId) ?? []
  }

  of<T extends FactRow['table']>(table: T): StoredOf<T>[] {
    return this.rows.filter((r): r is StoredOf<T> => r.fact.table === table)
  }

  get size(): number {
    return this.rows.length
  }
}

const indexUnder = <R>(index: Map<string, R[]>, key: string, row: R): void => {
  const rows = index.get(key)
  if (rows) rows.push(row)
  else index.set(key, [row])
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
