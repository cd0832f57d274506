import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// Issue 49: the bodies that a process's consumers insert into one table at once go as one insert
// (adapters/clickhouse/insert-groups.ts), on the 18.16 server and on chdb: one part for eight
// callers, every row stored, and a body the server refuses fails its own caller only.
const DATABASE = 'i49_insert_groups'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-groups-'))
const sessions: [string, ClickHouseSession][] = [
  ['server 18.16', serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })],
  ['embedded chdb', embeddedSession({ path: dir, database: DATABASE })],
]

afterAll(async () => {
  for (const [, session] of sessions) await session.close()
  rmSync(dir, { recursive: true, force: true })
})

const body = (from: number, n: number) => Array.from({ length: n }, (_, i) => `{"Id":${from + i}}\n`).join('')

describe.each(sessions)('insert groups, %s', (_, session) => {
  const db = ident(DATABASE)
  const table = sql`${db}.grouped`

  const reset = async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
    await session.command(sql`CREATE DATABASE ${db}`)
    await session.command(sql`CREATE TABLE ${table} (Id UInt32) ENGINE = MergeTree ORDER BY Id`)
    await session.command(sql`SYSTEM STOP MERGES ${table}`)
  }

  const stored = async () => (await session.select<{ n: string; parts: string }>(sql`SELECT count() AS n, uniqExact(_part) AS parts FROM ${table}`))[0]

  it('eight callers at once: one part, every row', async () => {
    await reset()
    await Promise.all(Array.from({ length: 8 }, (_, i) => session.insertJsonEachRow('grouped', Buffer.from(body(i * 100, 100)))))
    expect(await stored()).toEqual({ n: '800', parts: '1' })
  })

  it('a refused body fails its caller; the others are stored', async () => {
    await reset()
    const outcomes = await Promise.allSettled([
      session.insertJsonEachRow('grouped', body(0, 100)),
      session.insertJsonEachRow('grouped', '{"Id":"not a number"}\n'),
      session.insertJsonEachRow('grouped', body(100, 100)),
    ])
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled'])
    expect((outcomes[1] as PromiseRejectedResult).reason).toBeInstanceOf(StoreError)
    expect((await stored())?.n).toBe('200')
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  })
})
