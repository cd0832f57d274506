import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, name, sql } from '../../src/adapters/clickhouse/sql-fragment.js'

/** The local cluster of scripts/clickhouse-cluster.sh: one shard, replicas 1 and 2. */
export const CLUSTER = process.env.DEV_STATS_TEST_CLUSTER ?? 'dev_stats_local'
export type Replica = 1 | 2
export const replicaUrl = (n: Replica): string => `http://127.0.0.1:1820${n}`

/** A session in cluster mode through replica n (its Distributed tables reach both replicas). */
export const clusterSession = (database: string, n: Replica = 1): ClickHouseSession =>
  serverSession({ url: replicaUrl(n), user: 'default', password: '', database, cluster: CLUSTER })

/** A plain session on replica n: reads its own local tables, to see what it holds. */
export const replicaSession = (database: string, n: Replica): ClickHouseSession =>
  serverSession({ url: replicaUrl(n), user: 'default', password: '', database })

const SCRIPT = fileURLToPath(new URL('../../scripts/clickhouse-cluster.sh', import.meta.url))

/** Runs scripts/clickhouse-cluster.sh; throws with its output on failure. */
export const clusterScript = (...args: string[]): void => {
  const r = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 10 * 60_000 })
  if (r.status !== 0) throw new Error(`scripts/clickhouse-cluster.sh ${args.join(' ')} failed:\n${r.stdout}${r.stderr}${r.error ? String(r.error) : ''}`)
}

/** Waits until replica n has fetched every part its replicated tables of the database are due. */
export const syncReplica = async (database: string, n: Replica): Promise<void> => {
  const s = replicaSession(database, n)
  try {
    const tables = await s.select<{ table: string }>(sql`SELECT table FROM system.replicas WHERE database = ${name(database)}`)
    for (const { table } of tables) await s.command(sql`SYSTEM SYNC REPLICA ${ident(database)}.${ident(table)}`)
  } finally {
    await s.close()
  }
}
