import { afterAll, describe, expect, it } from 'vitest'
import { serverAdapters } from '../../../src/adapters/clickhouse/clickhouse-adapters.factory.js'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { Guid } from '../../../src/domain/guid.js'
import type { Instant } from '../../../src/domain/instant.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// Issue 46.2: reads shared the ingest's client (10 sockets) with the inserts and probes; a read's
// time limit started before it had a socket, so while the ingest held every socket the read
// answered read-timeout with the server idle. Reads have a client of their own now.
const DATABASE = `reads_own_${Date.now().toString(36)}`
const adapters = serverAdapters({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE }, { readTimeoutSeconds: 1 }, 1)

afterAll(async () => {
  await adapters.session.command(sql`DROP DATABASE IF EXISTS ${ident(DATABASE)}`).catch(() => undefined)
  await adapters.session.close()
  await adapters.readSession.close()
})

describe('a read while the ingest holds every socket of its client', () => {
  it('is answered at once, within its 1 s limit', async () => {
    await migrate(adapters.session)
    // 10 statements of 3 s each: the ingest client's whole pool
    const busy = Array.from({ length: 10 }, () => adapters.session.select(sql`SELECT sleep(3) AS s`))
    await new Promise((r) => setTimeout(r, 300))
    const at = performance.now()
    const totals = (await adapters.readModel.sessionMetrics('6f1c0e2a-4b7d-4e5f-8a9b-0c1d2e3f4a5b' as Guid, { from: 0 as Instant, to: Date.now() as Instant })).sessions
    const ms = performance.now() - at
    await Promise.all(busy)
    expect(totals.sessions).toBe(0)
    expect(ms).toBeLessThan(1500)
  }, 60_000)
})
