import type { DataVersionReader, ReadSource } from '../../application/ports/data-version.port.js'
import { DIM_TABLE } from '../../domain/dimension-upsert.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { join, name, sql } from './sql-fragment.js'

const SOURCE_OF: Readonly<Record<string, ReadSource>> = {
  // the developer-keyed serving tables views and sessions are read from (migration 0008)
  developer_view_facts: 'views',
  developer_session_facts: 'sessions',
  funnel_daily: 'funnel',
  funnel_developer_daily: 'funnel',
  ...Object.fromEntries(Object.values(DIM_TABLE).map((t) => [t, 'dimensions'])),
}

/**
 * The names of a table's active parts: every insert makes a part with a new name (block numbers
 * only grow), every merge or mutation replaces names, so the sorted list changes with every write;
 * the newest part's time tells a re-created table (whose names start again) from the old one.
 * A single server only: on a cluster the other shards' parts are not in this server's
 * system.parts (the composition root does not cache reads there).
 */
export class ClickHouseDataVersions implements DataVersionReader {
  constructor(private readonly session: ClickHouseSession) {}

  async versions(): Promise<ReadonlyMap<ReadSource, string>> {
    const rows = await this.session.select<{ table: string; v: string }>(sql`
      SELECT table, concat(toString(sipHash64(arrayStringConcat(arraySort(groupArray(name)), ','))), '@', toString(max(modification_time))) AS v
      FROM system.parts
      WHERE database = ${name(this.session.database)} AND active AND table IN (${join(Object.keys(SOURCE_OF).map(name), ', ')})
      GROUP BY table`)
    const parts = new Map<ReadSource, string[]>()
    for (const r of rows.sort((a, b) => (a.table < b.table ? -1 : 1))) {
      const source = SOURCE_OF[r.table]
      if (source) parts.set(source, [...(parts.get(source) ?? []), `${r.table}:${r.v}`])
    }
    return new Map([...parts].map(([source, tokens]) => [source, tokens.join(' ')]))
  }
}
