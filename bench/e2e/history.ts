import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { migrate } from '../../src/adapters/clickhouse/clickhouse-migrator.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, name, render, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { checkLoaded, loadBenchData, loadedScale, partitionId } from '../read/load.js'
import { CLICKHOUSE_URL } from './infra.js'

// bench:e2e --history: a store with history under the service. bench:read's data at a scale
// (its loader and backfill: raw facts, link and serving tables, merged) is loaded once per size
// into a template database, or taken from a database a `BENCH_KEEP=1 npm run bench:read` kept
// (BENCH_HISTORY_DATABASES=<name>[,<name>…], each checked for its scale); each service run's own
// database gets the template's parts by ALTER TABLE … ATTACH PARTITION … FROM (hard links: no
// rows are copied, the template is unchanged), after the migrations and before the service starts.

const session = (database: string): ClickHouseSession =>
  serverSession({ url: CLICKHOUSE_URL, user: process.env.DEV_STATS_CLICKHOUSE_USER ?? 'default', password: process.env.DEV_STATS_CLICKHOUSE_PASSWORD ?? '', database })

export interface HistoryTemplate {
  readonly scale: number
  readonly database: string
  /** Loaded by this run (dropped at its end unless BENCH_KEEP=1). */
  readonly loadedHere: boolean
}

/** The template of every non-zero size: a kept database of that scale, else a new load. */
export const historyTemplates = async (sizes: readonly number[], runId: string, log: (line: string) => void): Promise<Map<number, HistoryTemplate>> => {
  const kept = (process.env.BENCH_HISTORY_DATABASES ?? '').split(',').filter((d) => d !== '')
  const byScale = new Map<number, string>()
  for (const database of kept) {
    const s = session(database)
    try {
      const loaded = await loadedScale(s)
      if (!loaded) throw new Error(`BENCH_HISTORY_DATABASES: ${database} holds no complete bench:read load`)
      await checkLoaded(s, loaded.scale)
      byScale.set(loaded.scale, database)
    } finally {
      await s.close()
    }
  }
  const templates = new Map<number, HistoryTemplate>()
  for (const scale of sizes.filter((n) => n > 0)) {
    const reused = byScale.get(scale)
    if (reused) {
      log(`history ${scale}×: the parts of ${reused} (a kept bench:read --scale ${scale})`)
      templates.set(scale, { scale, database: reused, loadedHere: false })
      continue
    }
    const database = `bench_${runId}_history_${scale}`
    const s = session(database)
    try {
      const started = Date.now()
      log(`history ${scale}×: loading bench:read's data at --scale ${scale} into ${database}`)
      await migrate(s)
      templates.set(scale, { scale, database, loadedHere: true })
      await loadBenchData(CLICKHOUSE_URL, s, scale, (line) => log(`  ${line}`))
      log(`history ${scale}×: loaded in ${((Date.now() - started) / 1000).toFixed(0)} s`)
    } finally {
      await s.close()
    }
  }
  return templates
}

/** Gives a migrated database the template's parts, table by table and partition by partition. */
export const attachHistory = async (template: HistoryTemplate, database: string): Promise<number> => {
  const s = session(template.database)
  const client = createClient({ url: CLICKHOUSE_URL, request_timeout: 600_000, log: { level: ClickHouseLogLevel.OFF } })
  try {
    const parts = await s.select<{ table: string; id: string }>(sql`
      SELECT DISTINCT table, partition_id AS id FROM system.parts
      WHERE database = ${name(template.database)} AND active AND table NOT IN ('schema_migrations', 'bench_read_meta')
      ORDER BY table, id`)
    for (const p of parts) {
      await client.command({ query: render(sql`ALTER TABLE ${ident(database)}.${ident(p.table)} ATTACH PARTITION ID ${partitionId(p.id)} FROM ${ident(template.database)}.${ident(p.table)}`, 'inline').query })
    }
    return parts.length
  } finally {
    await client.close()
    await s.close()
  }
}

/** Drops the templates this run loaded (BENCH_KEEP=1 keeps them, for BENCH_HISTORY_DATABASES). */
export const dropTemplates = async (templates: ReadonlyMap<number, HistoryTemplate>, log: (line: string) => void): Promise<void> => {
  for (const t of templates.values()) {
    if (!t.loadedHere) continue
    if (process.env.BENCH_KEEP === '1') {
      log(`kept ${t.database} (history ${t.scale}×): BENCH_HISTORY_DATABASES=${t.database} reuses it`)
      continue
    }
    const s = session(t.database)
    await s.command(sql`DROP DATABASE IF EXISTS ${ident(t.database)}`).finally(() => s.close())
  }
}
