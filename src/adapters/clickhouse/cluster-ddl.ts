import type { Migration } from './migration-file.parser.js'

/**
 * The cluster form of the single-server migrations (DEV_STATS_CLICKHOUSE_CLUSTER): every table
 * becomes `<table>_local` ON CLUSTER with the Replicated* variant of its engine (same version
 * column, keys and partitions), plus `<table>` as a Distributed table over it, so the stores keep
 * reading and writing the names they know. Pure text rewriting of the statement shapes
 * migrations/ uses; anything else is refused with the statement named.
 */
export const LOCAL_SUFFIX = '_local'

/**
 * Sharding column of each Distributed table (why: docs/clickhouse.md). A table not listed is
 * sharded by the first column of its ORDER BY, which is where its rows collapse.
 */
export const SHARDING_COLUMNS: Readonly<Record<string, string>> = {
  session_facts: 'SessionId',
  property_object_view_facts: 'PropertyObjectViewId',
  funnel_events: 'PropertyObjectId',
  funnel_daily: 'PropertyObjectId',
  schema_migrations: 'Version',
  // the link tables are looked up by day and id on every shard; spread them by the id
  view_links: 'PropertyObjectViewId',
  session_view_links: 'SessionId',
  session_links: 'SessionId',
  // developer_view_facts and developer_session_facts: KeyDeveloperId, their first ORDER BY column,
  // so that all of a developer's serving rows are on one shard
}

const MERGE_TREE = /^(Replacing|Aggregating|Summing|Collapsing|VersionedCollapsing)?MergeTree$/
const CREATE_DATABASE = /^CREATE\s+DATABASE\s+(IF\s+NOT\s+EXISTS\s+)?(\w+)\s*$/i
const CREATE_TABLE = /^CREATE\s+TABLE\s+(IF\s+NOT\s+EXISTS\s+)?(\w+)\.(\w+)\s*\(([\s\S]*)\)\s*ENGINE\s*=\s*(\w+)(?:\s*\(([^)]*)\))?([\s\S]*)$/i
const CREATE_VIEW = /^CREATE\s+MATERIALIZED\s+VIEW\s+(IF\s+NOT\s+EXISTS\s+)?(\w+)\.(\w+)\s+TO\s+(\w+)\.(\w+)\s+AS\s+([\s\S]*)$/i
const ALTER_TABLE = /^ALTER\s+TABLE\s+(\w+)\.(\w+)\s+([\s\S]*)$/i
const DROP_TABLE = /^DROP\s+TABLE\s+(IF\s+EXISTS\s+)?(\w+)\.(\w+)\s*$/i

const refuse = (statement: string, why: string): never => {
  throw new Error(`no cluster form for migration statement (${why}): ${statement.slice(0, 80).replace(/\s+/g, ' ')}`)
}

/** Rewrites every migration; sharding keys learnt from earlier CREATEs serve later ALTERs. */
export const toClusterForm = (migrations: readonly Migration[], cluster: string): Migration[] => {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(cluster)) throw new Error(`not a cluster name: ${cluster}`)
  const keys = new Map<string, string>()
  const distributed = (db: string, table: string): string => {
    const key = keys.get(`${db}.${table}`)
    if (!key) throw new Error(`no cluster form: ${db}.${table} was not created by an earlier migration`)
    const local = table + LOCAL_SUFFIX
    return `CREATE TABLE IF NOT EXISTS ${db}.${table} ON CLUSTER ${cluster} AS ${db}.${local} ENGINE = Distributed(${cluster}, ${db}, ${local}, cityHash64(${key}))`
  }
  const rewrite = (statement: string): string[] => {
    let m = CREATE_DATABASE.exec(statement)
    if (m) return [`CREATE DATABASE ${m[1] ?? ''}${m[2]} ON CLUSTER ${cluster}`]
    if ((m = CREATE_TABLE.exec(statement))) {
      const [, ifNot = '', db = '', table = '', columns, engine = '', args, rest = ''] = m
      const replicated = MERGE_TREE.test(engine)
        ? `Replicated${engine}(${[`'/clickhouse/tables/{shard}/${db}/${table}'`, `'{replica}'`, ...(args?.trim() ? [args.trim()] : [])].join(', ')})`
        : engine === 'Null' ? 'Null' : refuse(statement, `engine ${engine}`)
      const key = SHARDING_COLUMNS[table] ?? /ORDER\s+BY\s*\(?\s*(\w+)/i.exec(rest)?.[1] ?? refuse(statement, 'no sharding column')
      keys.set(`${db}.${table}`, key)
      const local = `CREATE TABLE ${ifNot}${db}.${table}${LOCAL_SUFFIX} ON CLUSTER ${cluster}\n(${columns})\nENGINE = ${replicated}${rest}`
      return [local, distributed(db, table)]
    }
    if ((m = CREATE_VIEW.exec(statement))) {
      const [, ifNot = '', db = '', view = '', toDb = '', target = '', select = ''] = m
      // The view runs where its source's rows land: on the local tables of each shard.
      const localSelect = select.replace(/\b(\w+)\.(\w+)\b/g, (ref, d: string, t: string) => (keys.has(`${d}.${t}`) ? `${d}.${t}${LOCAL_SUFFIX}` : ref))
      return [`CREATE MATERIALIZED VIEW ${ifNot}${db}.${view} ON CLUSTER ${cluster} TO ${toDb}.${target}${LOCAL_SUFFIX} AS ${localSelect}`]
    }
    if ((m = ALTER_TABLE.exec(statement))) {
      const [, db = '', table = '', change = ''] = m
      // 18.16 refuses ALTER … ON CLUSTER on a Distributed table over replicated shards; it holds
      // no data (inserts are synchronous), so it is re-created with the new columns instead.
      return [`ALTER TABLE ${db}.${table}${LOCAL_SUFFIX} ON CLUSTER ${cluster} ${change}`, `DROP TABLE IF EXISTS ${db}.${table} ON CLUSTER ${cluster}`, distributed(db, table)]
    }
    if ((m = DROP_TABLE.exec(statement))) {
      const [, ifExists = '', db = '', table = ''] = m
      const local = keys.has(`${db}.${table}`) ? [`DROP TABLE ${ifExists}${db}.${table}${LOCAL_SUFFIX} ON CLUSTER ${cluster}`] : []
      keys.delete(`${db}.${table}`)
      return [`DROP TABLE ${ifExists}${db}.${table} ON CLUSTER ${cluster}`, ...local]
    }
    return refuse(statement, 'unknown statement shape')
  }
  return migrations.map((m) => ({ version: m.version, statements: m.statements.flatMap(rewrite) }))
}
