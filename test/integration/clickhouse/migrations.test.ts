import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_MIGRATIONS_DIR, migrate, pendingMigrations } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// `npm run migrate` on the 18.16 server and on chdb: from nothing, again (nothing to do), and a
// run interrupted after 0006's ALTER but before its record (18.16 has no ADD COLUMN IF NOT EXISTS).
const dirs: string[] = []
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })))

/** The project's migrations plus `extra` files, in a directory of their own. */
const migrationsWith = (extra: Record<string, string>): string => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-stats-migrations-'))
  dirs.push(dir)
  for (const f of readdirSync(DEFAULT_MIGRATIONS_DIR)) copyFileSync(join(DEFAULT_MIGRATIONS_DIR, f), join(dir, f))
  for (const [f, text] of Object.entries(extra)) writeFileSync(join(dir, f), text)
  return dir
}

const chdbDir = mkdtempSync(join(tmpdir(), 'dev-stats-chdb-migrate-'))
dirs.push(chdbDir)
const id = Math.random().toString(36).slice(2, 8)
const stores: [string, () => ClickHouseSession][] = [
  ['ClickHouse 18.16 server', () => serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: `dev_stats_migrate_${id}` })],
  ['chdb', () => embeddedSession({ path: chdbDir, database: `dev_stats_migrate_${id}` })],
]

describe.each(stores)('migrations on %s', (_, open) => {
  const session = open()
  afterAll(async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(session.database)}`)
    await session.close()
  })

  it('apply from nothing, then nothing to do; ViewSourceRaw is a Nullable(String) beside ViewSource', async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(session.database)}`)
    expect(await migrate(session)).toContain('0006_view_source_raw')
    expect(await migrate(session)).toEqual([])
    const columns = await session.select<{ name: string; type: string }>(sql`DESCRIBE TABLE ${ident(session.database)}.property_object_view_facts`)
    const names = columns.map((c) => c.name)
    expect(names.slice(names.indexOf('ViewSource'), names.indexOf('ViewSource') + 2)).toEqual(['ViewSource', 'ViewSourceRaw'])
    expect(columns.find((c) => c.name === 'ViewSourceRaw')?.type).toBe('Nullable(String)')
  })

  it('an ADD COLUMN whose column exists (a run interrupted before its record) counts as applied', async () => {
    const again = 'ALTER TABLE pin_dev_stats.property_object_view_facts ADD COLUMN ViewSourceRaw Nullable(String) AFTER ViewSource;\n'
    expect(await migrate(session, migrationsWith({ '9999_interrupted_rerun.sql': again }))).toEqual(['9999_interrupted_rerun'])
    const other = 'ALTER TABLE pin_dev_stats.no_such_table ADD COLUMN X String;\n'
    await expect(migrate(session, migrationsWith({ '9998_broken.sql': other }))).rejects.toThrow()
  })

  it('pending: the migrations a store has not recorded (what makes the service refuse to start), none once applied', async () => {
    expect(await pendingMigrations(session)).toEqual([])
    expect(await pendingMigrations(session, migrationsWith({ '9997_next.sql': 'CREATE TABLE IF NOT EXISTS pin_dev_stats.next (X UInt8) ENGINE = MergeTree ORDER BY X;\n' }))).toEqual(['9997_next'])
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(session.database)}`)
    expect(await pendingMigrations(session)).toContain('0008_serving_tables')
  })
})
