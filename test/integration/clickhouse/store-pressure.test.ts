import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseStorePressure } from '../../../src/adapters/clickhouse/clickhouse-store-pressure.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, int, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// Issue 37.2: the parts pressure read on the real stores (18.16 and chdb): the most active parts of
// any partition of the database, merges held so that each insert stays a part.
const DATABASE = `parts_pressure_${Date.now().toString(36)}`
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-parts-'))
const stores: readonly (readonly [string, ClickHouseSession])[] = [
  ['18.16 server', serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })],
  ['chdb', embeddedSession({ path: dir, database: DATABASE })],
]

afterAll(async () => {
  for (const [, s] of stores) {
    await s.command(sql`DROP DATABASE IF EXISTS ${ident(DATABASE)}`).catch(() => undefined)
    await s.close()
  }
  rmSync(dir, { recursive: true, force: true })
})

describe.each(stores)('%s', (_, session) => {
  it('counts the active parts of the fullest partition', async () => {
    const db = ident(DATABASE)
    await session.command(sql`CREATE DATABASE IF NOT EXISTS ${db}`)
    await session.command(sql`CREATE TABLE ${db}.t (d Date, n UInt32) ENGINE = MergeTree() PARTITION BY toYYYYMM(d) ORDER BY n`)
    const pressure = new ClickHouseStorePressure(session)
    expect(await pressure.activePartsPeak()).toBe(0)
    await session.command(sql`SYSTEM STOP MERGES ${db}.t`)
    for (let i = 0; i < 5; i++) await session.command(sql`INSERT INTO ${db}.t VALUES ('2026-11-30', ${int(i)})`)
    await session.command(sql`INSERT INTO ${db}.t VALUES ('2026-10-01', 1)`)
    expect(await pressure.activePartsPeak()).toBe(5)
  })
})
