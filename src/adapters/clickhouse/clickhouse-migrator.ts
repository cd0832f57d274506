import { existsSync } from 'node:fs'
import { readdir, readFile } from 'node:fs/promises'
import { dirname, join as joinPath } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { ClickHouseSession } from './clickhouse-session.js'
import { dateTimeText } from './datetime-text.js'
import { toClusterForm } from './cluster-ddl.js'
import { isMigrationFile, parseMigration, type Migration } from './migration-file.parser.js'
import { ident, sql } from './sql-fragment.js'
import { StoreError } from '../../application/ports/store-error.js'

/** The package's migrations/, found upwards from this module: it runs from src/ (tsx), dist/src/ (tsc) or the bundle dist/service.mjs. */
const migrationsDirAbove = (from: string): string => {
  for (let dir = from; dirname(dir) !== dir; dir = dirname(dir)) {
    if (existsSync(joinPath(dir, 'migrations')) && existsSync(joinPath(dir, 'package.json'))) return joinPath(dir, 'migrations/')
  }
  return joinPath(from, 'migrations/')
}

export const DEFAULT_MIGRATIONS_DIR = migrationsDirAbove(dirname(fileURLToPath(import.meta.url)))

export const readMigrations = async (dir: string, database: string): Promise<Migration[]> => {
  const names = (await readdir(dir)).filter(isMigrationFile).sort()
  return Promise.all(names.map(async (n) => parseMigration(n, await readFile(joinPath(dir, n), 'utf8'), database)))
}

/** Told before each migration is applied: the `index`-th (from 0) of the `of` pending. */
export type MigrationProgress = (step: { readonly version: string; readonly statements: number; readonly index: number; readonly of: number }) => void

/**
 * Applies, in file order, every migration whose version is not yet in
 * <database>.schema_migrations, recording each after its last statement succeeded. Every
 * statement is IF NOT EXISTS (or an ADD COLUMN, see applyStatement), so a run interrupted between
 * a statement and its record is repaired by the next run. With a cluster, the statements are
 * their ON CLUSTER form (cluster-ddl.ts). Returns the versions applied now (empty when up to date).
 */
export const migrate = async (session: ClickHouseSession, dir = DEFAULT_MIGRATIONS_DIR, now = Date.now(), progress?: MigrationProgress): Promise<string[]> => {
  const files = await readMigrations(dir, session.database)
  const migrations = session.options.cluster ? toClusterForm(files, session.options.cluster) : files
  const applied = await appliedVersions(session)
  const pending = migrations.filter((m) => !applied.has(m.version))
  const done: string[] = []
  for (const m of pending) {
    progress?.({ version: m.version, statements: m.statements.length, index: done.length, of: pending.length })
    for (const statement of m.statements) await applyStatement(session, statement)
    await session.insert('schema_migrations', [{ Version: m.version, AppliedAt: dateTimeText(now) }])
    done.push(m.version)
  }
  return done
}

const appliedVersions = async (session: ClickHouseSession): Promise<Set<string>> => {
  const db = ident(session.database)
  const [exists] = await session.select<{ result: number | string }>(sql`EXISTS TABLE ${db}.schema_migrations`)
  if (Number(exists?.result ?? 0) !== 1) return new Set()
  return new Set((await session.select<{ Version: string }>(sql`SELECT DISTINCT Version FROM ${db}.schema_migrations`)).map((r) => r.Version))
}

/** The package's migrations the store has not recorded as applied, in file order (read-only). */
export const pendingMigrations = async (session: ClickHouseSession, dir = DEFAULT_MIGRATIONS_DIR): Promise<string[]> => {
  const applied = await appliedVersions(session)
  return (await readMigrations(dir, session.database)).map((m) => m.version).filter((v) => !applied.has(v))
}

const ADD_COLUMN = /^ALTER\s+TABLE\s+\S+\s+(ON\s+CLUSTER\s+\S+\s+)?ADD\s+COLUMN\s/i

/**
 * 18.16 has no ADD COLUMN IF NOT EXISTS. An ADD COLUMN that fails with "column with this name
 * already exists" (code 44 on 18.16, 15 DUPLICATE_COLUMN on a current ClickHouse) was applied by
 * a run interrupted before its record: it is done.
 */
const applyStatement = async (session: ClickHouseSession, statement: string): Promise<void> => {
  try {
    await session.ddl(statement)
  } catch (e) {
    const exists = e instanceof StoreError && ['CLICKHOUSE_44', 'CLICKHOUSE_15'].includes(e.code) && /already exists/i.test(e.message)
    if (!(exists && ADD_COLUMN.test(statement))) throw e
  }
}
