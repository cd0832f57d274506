import type { DataVersionReader, ReadSource } from '../../application/ports/data-version.port.js'
import { DIM_TABLE } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { ident, join, name, sql, uuidSet, type SqlFragment } from './sql-fragment.js'

/** The developer-keyed tables each source is read from, with their developer column. */
const DEVELOPER_KEYED: readonly { readonly source: ReadSource; readonly table: string; readonly key: string }[] = [
  { source: 'views', table: 'developer_view_facts', key: 'KeyDeveloperId' },
  { source: 'sessions', table: 'developer_session_facts', key: 'KeyDeveloperId' },
  // written together with funnel_daily (both fed by funnel_events), so it moves whenever that does
  { source: 'funnel', table: 'funnel_developer_daily', key: 'DeveloperId' },
]

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

  /**
   * The names of the active parts that hold a developer's rows, and how many rows: an insert of
   * that developer's rows adds a part, a merge of one of its parts renames it, another
   * developer's insert touches neither. The tables' creation time tells a re-created table (whose
   * part names start again) from the old one. Reads only the developers' key ranges.
   */
  async developerVersions(developerIds: readonly Guid[]): Promise<ReadonlyMap<Guid, ReadonlyMap<ReadSource, string>>> {
    const db = ident(this.session.database)
    const ids = uuidSet(developerIds)
    const perTable = DEVELOPER_KEYED.map(({ source, table, key }): SqlFragment => sql`
      SELECT ${name(source)} AS source, toString(${ident(key)}) AS developer,
             concat(arrayStringConcat(arraySort(groupUniqArray(_part)), ','), '#', toString(count())) AS v
      FROM ${db}.${ident(table)}
      WHERE ${ident(key)} IN ${ids}
      GROUP BY ${ident(key)}`)
    const [rows, created] = await Promise.all([
      this.session.select<{ source: ReadSource; developer: Guid; v: string }>(join(perTable, ' UNION ALL '), { max_threads: 1 }),
      this.session.select<{ t: string }>(sql`
        SELECT toString(max(metadata_modification_time)) AS t FROM system.tables
        WHERE database = ${name(this.session.database)} AND name IN (${join(DEVELOPER_KEYED.map((d) => name(d.table)), ', ')})`),
    ])
    const epoch = created[0]?.t ?? ''
    // the server spells UUIDs in lower case; a caller may not
    const byServerSpelling = new Map<string, Map<ReadSource, string>>()
    const versions = new Map<Guid, Map<ReadSource, string>>()
    for (const d of developerIds) {
      const tokens = byServerSpelling.get(d.toLowerCase()) ?? new Map<ReadSource, string>()
      byServerSpelling.set(d.toLowerCase(), tokens)
      versions.set(d, tokens)
    }
    for (const r of rows) byServerSpelling.get(r.developer.toLowerCase())?.set(r.source, `${r.v}@${epoch}`)
    return versions
  }
}
