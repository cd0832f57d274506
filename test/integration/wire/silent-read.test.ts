import { afterAll, beforeAll, expect, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { CLIENT_GRACE_MS, timeLimitedSelect } from '../../../src/adapters/clickhouse/time-limited-select.js'
import { ReadTimedOut } from '../../../src/application/ports/read-model.port.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { OwnToxiproxy, type WireProxy } from '../../support/toxiproxy.js'

// Issue 36.3: a read over a connection that stays open and carries nothing back (a half-open link
// to ClickHouse) ends as ReadTimedOut (the read API's 503) at the read time limit plus the client's
// grace, not after the HTTP client's 30 s request timeout; the server cannot end it, it never hears.
let toxiproxy: OwnToxiproxy
let proxy: WireProxy
beforeAll(async () => {
  toxiproxy = await OwnToxiproxy.start()
  proxy = await toxiproxy.proxy('clickhouse-read', Number(new URL(clickhouseUrl()).port))
})
afterAll(() => toxiproxy?.stop())

it('a read on a silent ClickHouse link ends as ReadTimedOut within the time limit and its grace', async () => {
  const session = serverSession({ url: `http://127.0.0.1:${proxy.port}`, user: 'default', password: '', database: 'default' })
  const read = timeLimitedSelect(session, 1)
  expect(await read(sql`SELECT 1 AS one`)).toEqual([{ one: 1 }]) // the link works, the session is open
  // A kept-alive socket would be closed by the server's keep_alive_timeout (3 s) after the last
  // answer, a hang-up rather than silence: let the client drop it first (its idle TTL is 2.5 s).
  await new Promise((r) => setTimeout(r, 3500))
  // both directions: nothing reaches the server, nothing comes back, nothing is closed
  for (const stream of ['upstream', 'downstream'] as const) await proxy.add({ name: `silent-${stream}`, type: 'timeout', stream, attributes: { timeout: 0 } })
  try {
    const started = Date.now()
    const error = await read(sql`SELECT 3 AS three`).then(() => undefined, (e: unknown) => e)
    const seconds = (Date.now() - started) / 1000
    expect(error).toBeInstanceOf(ReadTimedOut)
    expect(seconds).toBeGreaterThanOrEqual(1)
    expect(seconds).toBeLessThan(1 + CLIENT_GRACE_MS / 1000 + 1.5)
    // the same read without the time limit is still waiting (on the HTTP client's 30 s request timeout)
    const untimed = session.select(sql`SELECT 2 AS two`).then(() => 'answered', (e: unknown) => `failed: ${String(e)}`)
    expect(await Promise.race([untimed, new Promise((r) => setTimeout(() => r('waiting'), 4000))])).toBe('waiting')
  } finally {
    await proxy.clear()
    await session.close()
  }
}, 60_000)
