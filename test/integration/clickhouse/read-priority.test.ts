import { afterAll, describe, expect, it } from 'vitest'
import { serverAdapters } from '../../../src/adapters/clickhouse/clickhouse-adapters.factory.js'
import { sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { ClickHouseStorePressure } from '../../../src/adapters/clickhouse/clickhouse-store-pressure.js'
import { clickhouseUrl, databaseOfTestFile } from '../../support/clickhouse.js'

// Issue 66: reads of the API slowed past 1 s while the ingest caught up after an outage, its
// lookups reading the most rows of any query. The read client's selects go first on the server
// (ClickHouse's `priority`): an ingest select pauses while one runs; the parts probe does not.
const adapters = serverAdapters({ url: clickhouseUrl(), user: 'default', password: '', database: databaseOfTestFile(import.meta.url) })
const READ_MS = 2000 // the sleep(2) below
// ~20 ms alone: 306 blocks of numbers, each a point where a paused select waits
const INGEST_SELECT = sql`SELECT count() AS n FROM (SELECT number FROM system.numbers LIMIT 20000000)`

afterAll(async () => {
  await adapters.session.close()
  await adapters.readSession.close()
})

/** Runs `work` while a read of READ_MS runs on the read client; when each ended, ms after the read began. */
const duringRead = async (work: () => Promise<unknown>): Promise<{ readEnded: number; workEnded: number }> => {
  const began = performance.now()
  const read = adapters.readSession.select(sql`SELECT sleep(2) AS s`).then(() => performance.now() - began)
  await new Promise((r) => setTimeout(r, 300))
  await work()
  const workEnded = performance.now() - began
  return { readEnded: await read, workEnded }
}

describe('read priority on the server', () => {
  it('an ingest select waits while a read runs, and runs at once without one', async () => {
    const at = performance.now()
    await adapters.session.select(INGEST_SELECT)
    expect(performance.now() - at).toBeLessThan(1000)

    const { readEnded, workEnded } = await duringRead(() => adapters.session.select(INGEST_SELECT))
    expect(workEnded).toBeGreaterThanOrEqual(readEnded - 100)
  })

  it('the parts probe is not paused by a read', async () => {
    const pressure = new ClickHouseStorePressure(adapters.session)
    const { readEnded, workEnded } = await duringRead(() => pressure.activePartsPeak())
    expect(workEnded).toBeLessThan(readEnded - 1000)
  })
})
