import type { LinkPartition, LinkPartitions } from '../../application/ports/link-partitions.port.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { ident, join, monthPartition, name, sql, type SqlFragment } from './sql-fragment.js'

export const LINK_TABLES = ['view_links', 'session_view_links', 'session_links'] as const

/**
 * The link tables' monthly partitions on a ClickHouse server, chdb or a cluster. On a cluster the
 * partitions are those of the replica the session talks to (system.parts is per server), and a
 * drop runs `ON CLUSTER` on the Replicated tables under the Distributed ones.
 */
export class ClickHouseLinkPartitions implements LinkPartitions {
  constructor(private readonly session: ClickHouseSession) {}

  private get local(): string {
    return this.session.options.cluster ? '_local' : ''
  }

  async list(): Promise<readonly LinkPartition[]> {
    const tables = LINK_TABLES.map((t) => name(`${t}${this.local}`))
    const rows = await this.session.select<{ table: string; partition: string }>(sql`
      SELECT DISTINCT table, partition FROM system.parts
      WHERE database = ${name(this.session.database)} AND active AND table IN (${join(tables, ', ')})`)
    const suffix = this.local
    return rows.map((r) => ({ table: suffix ? r.table.slice(0, -suffix.length) : r.table, partition: r.partition }))
  }

  async drop({ table, partition }: LinkPartition): Promise<void> {
    if (!(LINK_TABLES as readonly string[]).includes(table)) throw new TypeError(`not a link table: ${JSON.stringify(table)}`)
    const { cluster } = this.session.options
    const onCluster: SqlFragment = cluster ? sql` ON CLUSTER ${ident(cluster)}` : sql``
    await this.session.command(sql`ALTER TABLE ${ident(this.session.database)}.${ident(`${table}${this.local}`)}${onCluster} DROP PARTITION ${monthPartition(partition)}`)
  }
}
