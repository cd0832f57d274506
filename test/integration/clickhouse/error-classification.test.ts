import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// The translator's classification against errors the real servers raise (18.16 and chdb):
// content the server refuses is `retriable: false` (the engine isolates those rows), everything
// else — schema, syntax, a server that is not there — is retried.
const DATABASE = 'i8_error_classes'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-errors-'))
const stores: readonly (readonly [string, ClickHouseSession])[] = [
  ['18.16 server', serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })],
  ['chdb', embeddedSession({ path: dir, database: DATABASE })],
]

// 18.16 ends the read on its estimate, long before a 10 s clock; chdb only on the clock, so it gets a short one
const ESTIMATE: Readonly<Record<string, { code: string; limit: number }>> = {
  '18.16 server': { code: 'CLICKHOUSE_160', limit: 10 },
  chdb: { code: 'CLICKHOUSE_159', limit: 2 },
}

const failure = async (work: () => Promise<unknown>): Promise<StoreError> => {
  try {
    await work()
  } catch (e) {
    if (e instanceof StoreError) return e
    throw new Error(`not a StoreError: ${String(e)}`)
  }
  throw new Error('expected a failure')
}

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each(stores)('%s', (store, session) => {
  const db = ident(DATABASE)
  beforeAll(async () => {
    await session.command(sql`CREATE DATABASE IF NOT EXISTS ${db}`)
    await session.command(sql`DROP TABLE IF EXISTS ${db}.t`)
    await session.command(sql`CREATE TABLE ${db}.t (a UInt32, u UUID, d DateTime('UTC')) ENGINE = Memory`)
  })
  afterAll(async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
    await session.close()
  })
  const row = { a: 1, u: '00000000-0000-0000-0000-000000000001', d: '2026-11-30 10:00:00' }

  it.each([
    ['a negative UInt32', { ...row, a: -1 }, ['CLICKHOUSE_72']],
    ['a UUID that is not one', { ...row, u: 'zz' }, ['CLICKHOUSE_27', 'CLICKHOUSE_376']],
    ['a DateTime that is not one', { ...row, d: 'garbage' }, ['CLICKHOUSE_41', 'CLICKHOUSE_27']],
  ])('insert of %s is refused content (retriable: false)', async (__, values, codes) => {
    const e = await failure(() => session.insert('t', [values]))
    expect([e.retriable, codes]).toEqual([false, expect.arrayContaining([e.code])])
  })

  it.each([
    ['a number that does not parse', sql`SELECT toUInt32('abc')`, 'CLICKHOUSE_6', false],
    ['a date that does not parse', sql`SELECT toDate('abc')`, 'CLICKHOUSE_38', false],
    ['an unknown database', sql`SELECT * FROM nope_i8.nope`, 'CLICKHOUSE_81', true],
    ['a syntax error', sql`SELEC 1`, 'CLICKHOUSE_62', true],
  ])('%s → %s, retriable %s', async (__, query, code, retriable) => {
    const e = await failure(() => session.select(query))
    expect([e.code, e.retriable]).toEqual([code, retriable])
  })

  // what ClickHouseReadModel turns into ReadTimedOut (the read API's 503)
  it('a read past max_execution_time → CLICKHOUSE_159', async () => {
    const e = await failure(() => session.select(sql`SELECT count() FROM numbers(100000000000) WHERE number % 7 = 3`, { max_execution_time: 1 }))
    expect(e.code).toBe('CLICKHOUSE_159')
  }, 30_000)

  // A table's row count lets the server estimate a read's time; a profile that sets
  // timeout_before_checking_execution_speed makes 18.16 end it on that estimate (chdb: only on the clock).
  // Small blocks: the estimate is made between blocks, and one default block of this read takes ~3 s.
  it(`a read estimated past max_execution_time → ${ESTIMATE[store]!.code}`, async () => {
    await session.command(sql`CREATE TABLE ${db}.rows (n UInt64) ENGINE = MergeTree ORDER BY n`)
    // the embedded session keeps the 1 s limit of the case before: the set-up has none
    await session.command(sql`INSERT INTO ${db}.rows SELECT number FROM numbers(5000000)`, { max_execution_time: 0 })
    const slow = sql`SELECT count() FROM ${db}.rows WHERE arraySum(arrayMap(x -> cityHash64(n, x) % 3, range(1000))) = 7`
    const { code, limit } = ESTIMATE[store]!
    const e = await failure(() =>
      session.select(slow, { max_execution_time: limit, max_threads: 1, max_block_size: '8192', timeout_before_checking_execution_speed: 1 }),
    )
    expect(e.code).toBe(code)
  }, 30_000)
})

it('a server that is not there is retriable', async () => {
  const gone = serverSession({ url: 'http://127.0.0.1:1', user: 'default', password: '', database: DATABASE })
  const e = await failure(() => gone.select(sql`SELECT 1`))
  expect(e.retriable).toBe(true)
  await gone.close()
})
