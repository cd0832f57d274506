import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { OwnToxiproxy } from '../../support/toxiproxy.js'
import { clickhousePort } from './proxied-service.js'

// Issue 64.1: a group of inserts into one table (insert-groups.ts) whose replies are lost (a
// Toxiproxy `timeout` on the answer direction: the server applies the insert, the client hears
// nothing) fails every caller after one request timeout, each with a retriable error for its
// engine's backoff. Sending it again body by body cost 1 + 8 request timeouts and applied every
// body twice.
const DATABASE = 'i64_silent_grouped_insert'
const REQUEST_TIMEOUT_MS = 1500
const CALLERS = 8
let toxiproxy: OwnToxiproxy
const direct = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })
beforeAll(async () => {
  toxiproxy = await OwnToxiproxy.start()
})
afterAll(async () => {
  await direct.command(sql`DROP DATABASE IF EXISTS ${ident(DATABASE)}`)
  await direct.close()
  toxiproxy?.stop()
})

describe('a grouped insert on a server whose replies are lost', () => {
  it('fails every caller at once after one request timeout, each body applied once', async () => {
    const table = sql`${ident(DATABASE)}.grouped`
    await direct.command(sql`DROP DATABASE IF EXISTS ${ident(DATABASE)}`)
    await direct.command(sql`CREATE DATABASE ${ident(DATABASE)}`)
    await direct.command(sql`CREATE TABLE ${table} (Id UInt32) ENGINE = MergeTree ORDER BY Id`)
    await direct.command(sql`SYSTEM STOP MERGES ${table}`)
    const proxy = await toxiproxy.proxy('clickhouse-grouped-insert', clickhousePort())
    const session = serverSession({ url: `http://127.0.0.1:${proxy.port}`, user: 'default', password: '', database: DATABASE, requestTimeoutMs: REQUEST_TIMEOUT_MS })
    try {
      await session.select(sql`SELECT 1`) // connected before the replies go silent
      await proxy.add({ name: 'reply-lost', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } })
      const started = performance.now()
      const outcomes = await Promise.allSettled(Array.from({ length: CALLERS }, (_, i) => session.insertJsonEachRow('grouped', `{"Id":${i}}\n`)))
      const elapsed = performance.now() - started
      const reasons = outcomes.map((o) => (o.status === 'rejected' ? o.reason : o.status))
      expect(reasons.every((r) => r instanceof StoreError && r.retriable), String(reasons)).toBe(true)
      expect(elapsed).toBeLessThan(3 * REQUEST_TIMEOUT_MS)
      const rows = await direct.select<{ n: string; ids: string }>(sql`SELECT count() AS n, uniqExact(Id) AS ids FROM ${table}`)
      expect(rows[0]).toEqual({ n: String(CALLERS), ids: String(CALLERS) })
    } finally {
      await proxy.clear()
      await session.close()
    }
  })
})
