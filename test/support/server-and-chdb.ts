import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from './clickhouse.js'

/**
 * The 18.16 server and chdb, each on `database`, for `describe.each`: the file's tests run on both.
 * After the file, the database is dropped from both, the sessions closed and chdb's directory removed.
 */
export const serverAndChdb = (database: string): readonly (readonly [string, ClickHouseSession])[] => {
  const dir = mkdtempSync(join(tmpdir(), `dev-stats-${database}-`))
  const stores = [
    ['18.16 server', serverSession({ url: clickhouseUrl(), user: 'default', password: '', database })],
    ['chdb', embeddedSession({ path: dir, database })],
  ] as const
  afterAll(async () => {
    for (const [, s] of stores) {
      await s.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`).catch(() => undefined)
      await s.close()
    }
    rmSync(dir, { recursive: true, force: true })
  })
  return stores
}
