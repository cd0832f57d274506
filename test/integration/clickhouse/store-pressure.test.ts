import { describe, expect, it } from 'vitest'
import { ClickHouseStorePressure } from '../../../src/adapters/clickhouse/clickhouse-store-pressure.js'
import { ident, int, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { serverAndChdb } from '../../support/server-and-chdb.js'

// Issue 37.2: the parts pressure read on the real stores (18.16 and chdb): the most active parts of
// any partition of the database, merges held so that each insert stays a part.
const DATABASE = `parts_pressure_${Date.now().toString(36)}`
const stores = serverAndChdb(DATABASE)

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
