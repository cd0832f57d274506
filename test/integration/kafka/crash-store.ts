import { join } from 'node:path'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { FileFactStore } from '../../support/file-fact-store.js'

/**
 * Where the crash tests' child consumers write: the real ClickHouse server (default; a database of
 * its own per test, migrated here) or, with DEV_STATS_CRASH_STORE=file, a durable JSON-lines file.
 */
export interface CrashStore {
  readonly kind: 'clickhouse' | 'file'
  /** Environment for consumer-process.ts. */
  readonly env: Record<string, string>
  /** FactId of every physical session_facts row. */
  factIds(): Promise<string[]>
  dispose(): Promise<void>
}

export const crashStore = async (dir: string, name: string): Promise<CrashStore> => {
  if (process.env.DEV_STATS_CRASH_STORE === 'file') {
    const file = join(dir, `${name}.jsonl`)
    return {
      kind: 'file',
      env: { STORE_FILE: file },
      factIds: async () => FileFactStore.read(file).map((r) => (r.fact.row as { factId: string }).factId),
      dispose: async () => undefined,
    }
  }
  const url = process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123'
  const database = `dev_stats_e2e_${name.replace(/[^A-Za-z0-9_]/g, '_')}`
  const session = serverSession({ url, user: 'default', password: '', database })
  await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
  await migrate(session)
  return {
    kind: 'clickhouse',
    env: { DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: url, DEV_STATS_CLICKHOUSE_DATABASE: database },
    factIds: async () =>
      (await session.select<{ FactId: string }>(sql`SELECT FactId FROM ${ident(database)}.session_facts`)).map((r) => r.FactId),
    dispose: async () => {
      await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
      await session.close()
    },
  }
}
