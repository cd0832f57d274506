import type { ClickHouseClient } from '@clickhouse/client'
import { describe, expect, it } from 'vitest'
import { ClickHouseSession } from '../../../../src/adapters/clickhouse/clickhouse-session.js'
import { render, sql } from '../../../../src/adapters/clickhouse/sql-fragment.js'

// Issue 63: on a cluster every read of ReadTables asks each replica of every shard (remote() over
// system.clusters), as the session's own user; on one server it names the table as before.
const clientAnswering = (clusters: { host: string; port: number }[]) =>
  ({
    query: async ({ query }: { query: string }) => ({
      json: async () => (query.includes('version()') ? [{ v: '18.16.1' }] : query.includes('system.clusters') ? clusters : []),
    }),
    close: async () => undefined,
  }) as unknown as ClickHouseClient

const text = async (session: ClickHouseSession, table: string) => render(sql`SELECT 1 FROM ${(await session.readTables()).table(table)}`, 'inline').query

describe('ReadTables', () => {
  it('one server: the database table', async () => {
    const session = new ClickHouseSession(async () => clientAnswering([]), { database: 'db' })
    expect(await text(session, 'developer_view_facts')).toBe('SELECT 1 FROM db.developer_view_facts')
    expect((await session.readTables()).replicas).toBe(1)
  })

  it('a cluster: every replica of every shard, as the session user, the password quoted', async () => {
    const replicas = [{ host: 'ch-1', port: 9000 }, { host: 'ch-2', port: 9000 }, { host: '::1', port: 9440 }]
    const session = new ClickHouseSession(async () => clientAnswering(replicas), {
      database: 'db', cluster: 'c1', credentials: { user: 'ingest', password: "p'a\\ss" },
    })
    expect(await text(session, 'developer_view_facts')).toBe(
      "SELECT 1 FROM remote('ch-1:9000,ch-2:9000,[::1]:9440', db, developer_view_facts_local, 'ingest', 'p\\'a\\\\ss')",
    )
    const tables = await session.readTables()
    expect(render(tables.system('parts'), 'inline').query).toBe("remote('ch-1:9000,ch-2:9000,[::1]:9440', system, parts, 'ingest', 'p\\'a\\\\ss')")
    expect(tables.replicas).toBe(3)
  })

  it('a cluster the server does not know fails at connect, naming it', async () => {
    const session = new ClickHouseSession(async () => clientAnswering([]), { database: 'db', cluster: 'nope' })
    await expect(session.readTables()).rejects.toThrow(/cluster nope is not in the server's system.clusters/)
  })
})
