import { Readable } from 'node:stream'
import { finished } from 'node:stream/promises'
import type { ClickHouseClient, ClickHouseSettings } from '@clickhouse/client'
import { dialectFor, pinnedInsertSettings } from './clickhouse-dialect.js'
import { toStoreError } from './clickhouse-error.translator.js'
import { ident, name, render, sql, textLiteral, type Dialect, type SqlFragment } from './sql-fragment.js'
import { InsertGroups } from './insert-groups.js'

/**
 * Settings on every statement, chosen to behave the same on 18.16 and on a current ClickHouse:
 * 64-bit integers always come back as strings (18.16's default), so readers always Number() them.
 */
interface Handle {
  readonly client: ClickHouseClient
  readonly dialect: Dialect
  /** Every insert's settings: the pinned ones for this server's version, and the cluster's. */
  readonly insertSettings: ClickHouseSettings
  /** How reads name their tables, made once at connect (on a cluster from system.clusters). */
  readonly tables: ReadTables
}

const COMMON_SETTINGS: ClickHouseSettings = { output_format_json_quote_64bit_integers: 1 }

/**
 * On a cluster: an insert returns once its rows are on a replica of every shard they belong to
 * (not queued on the receiving server), and an IN subquery over a Distributed table is computed
 * once and shipped (GLOBAL IN) instead of being refused.
 */
const CLUSTER_SETTINGS: ClickHouseSettings = { insert_distributed_sync: 1, distributed_product_mode: 'global' }

/**
 * Reads on a cluster (ReadTables): a replica that does not answer is left out rather than failing
 * the read (the replicas that answer hold every insert acknowledged by them), and a replica is given
 * a second to connect (18.16's 50 ms would leave out a replica across a slow link).
 */
const CLUSTER_READ_SETTINGS: ClickHouseSettings = { ...CLUSTER_SETTINGS, skip_unavailable_shards: 1, connect_timeout_with_failover_ms: 1000 }

/**
 * How reads name the tables whose answer must hold every acknowledged insert (spec §8). One
 * server: `<database>.<table>`. A cluster: every replica of every shard at once,
 * `remote('<replicas>', <database>, <table>_local)`: 18.16 writes a Distributed insert on the
 * replica it reached and a Distributed read asks one replica per shard, which may not have fetched
 * it yet. A row held by several replicas comes once from each, so what reads through these must
 * not count rows twice (argMax, LIMIT 1 BY, uniq, DISTINCT); a sum grows as replicas fetch.
 */
export interface ReadTables {
  table(name: string): SqlFragment
  /** A table of the `system` database, of every replica on a cluster. */
  system(name: string): SqlFragment
  /** How many replicas a read asks (1 on one server): fewer answering means a replica was left out. */
  readonly replicas: number
}

/**
 * Tables whose rows are increments: two equal blocks are two writes, which a Replicated table
 * would take for one (insert_deduplicate drops a block equal to a recent one), losing a count.
 */
const COUNTER_TABLES: ReadonlySet<string> = new Set(['developer_day_writes'])

export interface SessionOptions {
  /** Database holding the tables; the migrations' `pin_dev_stats` is renamed to it. */
  readonly database: string
  /** Overrides the dialect detected from version() (tests exercise the inline path on chdb). */
  readonly dialect?: Dialect
  /** DEV_STATS_CLICKHOUSE_CLUSTER: tables are Distributed over Replicated* ones (cluster-ddl.ts). */
  readonly cluster?: string
  /** Runs once after the first successful connect (e.g. migrations of an embedded store). */
  readonly onOpen?: (session: ClickHouseSession) => Promise<void>
  /** The server's host and port (spans name them); absent for an embedded store. */
  readonly server?: { readonly address: string; readonly port: number }
  /** On a cluster, who reads the other replicas (ReadTables): the session's own user. */
  readonly credentials?: { readonly user: string; readonly password: string }
  /**
   * ClickHouse's `priority` of the session's selects: while a select of a smaller positive value
   * runs on the server, those of a greater one pause (0 or absent: neither pauses nor is paused).
   */
  readonly priority?: number
}

/**
 * A lazily opened ClickHouse connection shared by the adapters. Opening (the client, the version
 * check, `onOpen`) happens on first use, so the container stays synchronous; a failed open is
 * retried on the next call. Every failure surfaces as a StoreError.
 */
export class ClickHouseSession {
  constructor(
    private readonly connect: () => Promise<ClickHouseClient>,
    readonly options: SessionOptions,
    private opened?: Promise<Handle>,
  ) {}

  get database(): string {
    return this.options.database
  }

  private get settings(): ClickHouseSettings {
    const priority: ClickHouseSettings = this.options.priority ? { priority: String(this.options.priority) } : {}
    return this.options.cluster ? { ...COMMON_SETTINGS, ...CLUSTER_READ_SETTINGS, ...priority } : { ...COMMON_SETTINGS, ...priority }
  }

  async dialect(): Promise<Dialect> {
    return (await this.open()).dialect
  }

  async readTables(): Promise<ReadTables> {
    return (await this.open()).tables
  }

  /** `signal` ends the request on the client's side too (a server that never answers). */
  async select<T>(fragment: SqlFragment, settings: ClickHouseSettings = {}, signal?: AbortSignal): Promise<T[]> {
    const { client, dialect } = await this.open()
    const { query, params } = render(fragment, dialect)
    return guard(async () => {
      const result = await client.query({
        query,
        format: 'JSONEachRow',
        ...(dialect === 'bound' ? { query_params: params } : {}),
        clickhouse_settings: { ...this.settings, ...settings },
        ...(signal ? { abort_signal: signal } : {}),
      })
      return result.json<T>()
    })
  }

  /** `signal` as select's. */
  async command(fragment: SqlFragment, settings: ClickHouseSettings = {}, signal?: AbortSignal): Promise<void> {
    const { client, dialect } = await this.open()
    const { query, params } = render(fragment, dialect)
    await guard(() =>
      client.command({
        query,
        ...(dialect === 'bound' ? { query_params: params } : {}),
        clickhouse_settings: { ...(this.options.cluster ? CLUSTER_SETTINGS : {}), ...settings },
        ...(signal ? { abort_signal: signal } : {}),
      }),
    )
  }

  /** Trusted DDL text from migrations/ only, never built from input values. */
  async ddl(statement: string): Promise<void> {
    const { client } = await this.open()
    await guard(() => client.command({ query: statement }))
  }

  /** The statement of an insert into `table`; its rows travel as the request body. */
  insertStatement(table: string): string {
    return `INSERT INTO ${this.database}.${table} FORMAT JSONEachRow`
  }

  /** Appends rows with JSONEachRow (the only insert format 18.16 and chdb both accept here). */
  async insert(table: string, rows: readonly Record<string, unknown>[]): Promise<void> {
    let body = ''
    for (const row of rows) body += `${JSON.stringify(row)}\n`
    await this.insertJsonEachRow(table, body)
  }

  /**
   * Appends a JSONEachRow body built by the caller (one JSON object per line), sent as it is: the
   * client's insert would stringify an object per row again. Bodies for one table handed in while
   * another insert into it runs go together (insert-groups.ts); this returns once the insert
   * carrying this body has.
   */
  insertJsonEachRow(table: string, body: string | Uint8Array): Promise<void> {
    if (body.length === 0) return Promise.resolve()
    return this.groups.insert(table, body)
  }

  private readonly groups = new InsertGroups(async (table, chunks) => {
    const { client, insertSettings } = await this.open()
    const settings: ClickHouseSettings = COUNTER_TABLES.has(table) ? { ...insertSettings, insert_deduplicate: 0 } : insertSettings
    await guard(async () => {
      const { stream } = await client.exec({
        query: this.insertStatement(table),
        values: Readable.from(chunks),
        ...(Object.keys(settings).length > 0 ? { clickhouse_settings: settings } : {}),
      })
      // Nothing useful comes back; reading it to the end frees the socket for the next request.
      stream.resume()
      await finished(stream)
    })
  })

  async close(): Promise<void> {
    const opened = this.opened
    this.opened = undefined
    if (opened) await opened.then(({ client }) => client.close()).catch(() => undefined)
  }

  private open(): Promise<Handle> {
    if (!this.opened) {
      const attempt = this.establish()
      this.opened = attempt
      attempt.catch(() => {
        if (this.opened === attempt) this.opened = undefined
      })
    }
    return this.opened
  }

  private async establish(): Promise<Handle> {
    const client = await guard(this.connect)
    try {
      const rows = await guard(async () => (await client.query({ query: 'SELECT version() AS v', format: 'JSONEachRow' })).json<{ v: string }>())
      const version = rows[0]?.v ?? ''
      const insertSettings = { ...pinnedInsertSettings(version), ...(this.options.cluster ? CLUSTER_SETTINGS : {}) }
      const tables = this.options.cluster
        ? everyReplicaTables(this.database, await replicasOf(client, this.options.cluster), this.options.credentials)
        : oneServerTables(this.database)
      const handle: Handle = { client, dialect: this.options.dialect ?? dialectFor(version), insertSettings, tables }
      // `onOpen` sees the session already connected, so its calls do not re-enter `open`.
      if (this.options.onOpen) await this.options.onOpen(new ClickHouseSession(this.connect, { ...this.options, onOpen: undefined }, Promise.resolve(handle)))
      return handle
    } catch (e) {
      await client.close().catch(() => undefined)
      throw e
    }
  }
}

/** ReadTables of one server (or an embedded store). */
export const oneServerTables = (database: string): ReadTables => ({
  table: (t) => sql`${ident(database)}.${ident(t)}`,
  system: (t) => sql`system.${ident(t)}`,
  replicas: 1,
})

/** ReadTables of a cluster: `remote()` over every replica of every shard, as the session's user. */
const everyReplicaTables = (database: string, replicas: readonly string[], user?: SessionOptions['credentials']): ReadTables => {
  const as = user ? sql`, ${textLiteral(user.user)}, ${textLiteral(user.password)}` : sql``
  const remote = (db: string, table: string) => sql`remote(${textLiteral(replicas.join(','))}, ${ident(db)}, ${ident(table)}${as})`
  return { table: (t) => remote(database, `${t}_local`), system: (t) => remote('system', t), replicas: replicas.length }
}

/** Every replica of every shard of the cluster, as remote() takes them. */
const replicasOf = async (client: ClickHouseClient, cluster: string): Promise<string[]> => {
  const { query } = render(sql`SELECT host_name AS host, port FROM system.clusters WHERE cluster = ${name(cluster)} ORDER BY shard_num, replica_num`, 'inline')
  const rows = await guard(async () => (await client.query({ query, format: 'JSONEachRow' })).json<{ host: string; port: number }>())
  if (rows.length === 0) throw toStoreError(new Error(`cluster ${cluster} is not in the server's system.clusters (<remote_servers>)`))
  return rows.map((r) => `${r.host.includes(':') ? `[${r.host}]` : r.host}:${r.port}`)
}

const guard = async <T>(work: () => Promise<T>): Promise<T> => {
  try {
    return await work()
  } catch (e) {
    throw toStoreError(e)
  }
}
