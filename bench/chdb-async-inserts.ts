// Do asynchronous inserts (async_insert=1, wait_for_async_insert=1) let concurrent small inserts
// share a part on chdb, the only current ClickHouse on these machines (the server is 18.16, which
// has no such setting)? Ten concurrent one-row inserts with merges stopped, under each setting;
// a part per insert means the inserts were not batched. `npx tsx bench/chdb-async-inserts.ts`
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ClickHouseLogLevel, createClient, type ClickHouseSettings } from '@clickhouse/client'

const INSERTS = 10
const BUSY_TIMEOUT_MS = 500

const path = mkdtempSync(join(tmpdir(), 'chdb-async-'))
const { createChdbConnection } = await import('chdb/connection')
const connection = createChdbConnection({ path }) as unknown as NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>
const client = createClient({ connection, log: { level: ClickHouseLogLevel.OFF } })
const rows = async <T>(query: string): Promise<T[]> => (await client.query({ query, format: 'JSONEachRow' })).json<T>()

const variants: [string, ClickHouseSettings][] = [
  ['synchronous', { async_insert: 0 }],
  ['async_insert=1, wait_for_async_insert=1', { async_insert: 1, wait_for_async_insert: 1, async_insert_busy_timeout_ms: BUSY_TIMEOUT_MS, async_insert_use_adaptive_busy_timeout: 0 }],
  ['async_insert=1, wait_for_async_insert=0', { async_insert: 1, wait_for_async_insert: 0, async_insert_busy_timeout_ms: BUSY_TIMEOUT_MS, async_insert_use_adaptive_busy_timeout: 0 }],
]

try {
  const [{ v }] = (await rows<{ v: string }>('SELECT version() AS v')) as [{ v: string }]
  console.log(`chdb ${v}: ${INSERTS} concurrent one-row inserts per setting, merges stopped, busy timeout ${BUSY_TIMEOUT_MS} ms`)
  const [byDefault] = await rows<{ s: string }>("SELECT toString(getSetting('async_insert')) AS s")
  console.log(`  async_insert by default: ${byDefault?.s}`)
  await client.command({ query: 'CREATE TABLE t (id UInt32) ENGINE = MergeTree ORDER BY id' })
  await client.command({ query: 'SYSTEM STOP MERGES t' })
  const parts = async () => Number((await rows<{ p: string }>("SELECT count() AS p FROM system.parts WHERE table = 't' AND active"))[0]?.p)
  for (const [name, settings] of variants) {
    const before = await parts()
    const t0 = performance.now()
    await Promise.all(Array.from({ length: INSERTS }, (_, i) => client.insert({ table: 't', values: [{ id: i }], format: 'JSONEachRow', clickhouse_settings: settings })))
    const ms = performance.now() - t0
    await new Promise((r) => setTimeout(r, 2 * BUSY_TIMEOUT_MS)) // a fire-and-forget buffer is flushed by now
    console.log(`  ${name}: returned in ${ms.toFixed(0)} ms, ${(await parts()) - before} new parts`)
  }
} finally {
  await client.close()
  rmSync(path, { recursive: true, force: true })
}
