import type { DataVersionReader, ReadSource } from '../../application/ports/data-version.port.js'
import { DIM_TABLE } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { ident, join, name, sql, uuidSet, type SqlFragment } from './sql-fragment.js'
import { timeLimitedSelect } from './time-limited-select.js'

/** The counts and the tables they count: re-creating any of them starts the counts again. */
const DEVELOPER_WRITES_TABLES = ['developer_day_writes', 'developer_view_facts', 'developer_session_facts', 'funnel_events']

/** The tables a developer's answers are read from (per-developer sources): rows removed from them change the versions. */
const DEVELOPER_READ_TABLES = ['developer_view_facts', 'developer_session_facts', 'funnel_developer_daily', 'funnel_daily']

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
 * A single server only (the composition root does not cache reads on a cluster).
 */
export class ClickHouseDataVersions implements DataVersionReader {
  private readonly select: ReturnType<typeof timeLimitedSelect>

  constructor(
    private readonly session: ClickHouseSession,
    /** Every read waits on a probe: the server ends one after this long (max_execution_time), as ReadTimedOut. 0: no limit. */
    timeoutSeconds = 0,
  ) {
    this.select = timeLimitedSelect(session, timeoutSeconds)
  }

  async versions(): Promise<ReadonlyMap<ReadSource, string>> {
    const rows = await this.select<{ table: string; v: string }>(sql`
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
   * How many rows each developer has had written into the serving tables of each source (the sum
   * of its counts in developer_day_writes, written by the ingest after the rows' inserts returned,
   * the same counts the day records are stamped with): an insert of that
   * developer's rows raises it once they are visible; another developer's insert or a merge (which
   * changes no answer) leaves it. The tables' creation time tells a re-created store (whose counts
   * start again) from the old one; `removals` below tells rows removed by hand.
   */
  async developerVersions(developerIds: readonly Guid[]): Promise<ReadonlyMap<Guid, ReadonlyMap<ReadSource, string>>> {
    const rows = await this.select<{ source: ReadSource; developer: Guid; v: string }>(sql`
      SELECT Source AS source, toString(KeyDeveloperId) AS developer,
             concat(toString(sum(Rows)), '@', (
               SELECT toString(max(metadata_modification_time)) FROM system.tables
               WHERE database = ${name(this.session.database)} AND name IN (${join(DEVELOPER_WRITES_TABLES.map(name), ', ')})),
               '/', (${removals(this.session.database, DEVELOPER_READ_TABLES)})) AS v
      FROM ${ident(this.session.database)}.developer_day_writes
      WHERE KeyDeveloperId IN ${uuidSet(developerIds)}
      GROUP BY KeyDeveloperId, Source`)
    // the server spells UUIDs in lower case; a caller may not
    const byServerSpelling = new Map<string, Map<ReadSource, string>>()
    const versions = new Map<Guid, Map<ReadSource, string>>()
    for (const d of developerIds) {
      const tokens = byServerSpelling.get(d.toLowerCase()) ?? new Map<ReadSource, string>()
      byServerSpelling.set(d.toLowerCase(), tokens)
      versions.set(d, tokens)
    }
    for (const r of rows) byServerSpelling.get(r.developer.toLowerCase())?.set(r.source, r.v)
    return versions
  }
}

/**
 * A token that rows removed by hand from `tables` change and inserts and merges leave (but for a
 * new month's partition): each partition's lowest block number, which an insert (higher blocks) and
 * a merge (the same blocks) keep and a DROP PARTITION or TRUNCATE removes, and every mutation
 * (ALTER DELETE/UPDATE) with whether it is done, so the token changes again once its rows are gone.
 */
const removals = (database: string, tables: readonly string[]): SqlFragment => {
  const db = name(database)
  const names = join(tables.map(name), ', ')
  return sql`SELECT concat(
      toString(sipHash64(arrayStringConcat(arraySort(groupArray(concat(table, ':', partition_id, ':', toString(low)))), ','))), '/',
      (SELECT toString(sipHash64(arrayStringConcat(arraySort(groupArray(concat(table, ':', mutation_id, ':', toString(is_done)))), ',')))
       FROM system.mutations WHERE database = ${db} AND table IN (${names})))
    FROM (SELECT table, partition_id, min(min_block_number) AS low FROM system.parts
          WHERE database = ${db} AND active AND table IN (${names}) GROUP BY table, partition_id)`
}

/**
 * The same as removals above, split by partition: each partition's token (its tables' lowest block
 * numbers) apart, and a token of what no partition tells (re-created tables, mutations) beside them.
 * `system` names the system tables read: on a cluster every replica's (a replica's lowest block
 * stays the lowest of all as the others fetch).
 */
export const removalsByPartition = (
  database: string,
  tables: readonly string[],
  system: (table: string) => SqlFragment = (t) => sql`system.${ident(t)}`,
): { readonly partitions: SqlFragment; readonly other: SqlFragment } => {
  const db = name(database)
  const names = join(tables.map(name), ', ')
  return {
    partitions: sql`
      SELECT partition_id AS partition, toString(sipHash64(arrayStringConcat(arraySort(groupArray(concat(table, ':', toString(low)))), ','))) AS token
      FROM (SELECT table, partition_id, min(min_block_number) AS low FROM ${system('parts')}
            WHERE database = ${db} AND active AND table IN (${names}) GROUP BY table, partition_id)
      GROUP BY partition_id`,
    other: sql`concat(
      (SELECT toString(max(metadata_modification_time)) FROM ${system('tables')} WHERE database = ${db} AND name IN (${names})), '/',
      (SELECT toString(sipHash64(arrayStringConcat(arraySort(groupArray(concat(table, ':', mutation_id, ':', toString(is_done)))), ',')))
       FROM ${system('mutations')} WHERE database = ${db} AND table IN (${names})))`,
  }
}
