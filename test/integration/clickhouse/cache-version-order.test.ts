import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CachedReadModel } from '../../../src/adapters/cache/cached-read-model.js'
import { ClickHouseDataVersions } from '../../../src/adapters/clickhouse/clickhouse-data-versions.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, name, sql, uuid } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { systemClock } from '../../../src/adapters/clock/system-clock.js'
import type { Guid } from '../../../src/domain/guid.js'
import { at, dimPath, funnelFact, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase, servingFactStore } from '../../support/clickhouse.js'

// The read cache's per-developer versions on the real 18.16 server must never be newer than the
// data they version: a probe between the data's insert and the version's finds the old version,
// and a row removed by hand (ALTER DELETE, DROP PARTITION, TRUNCATE) changes the versions too.
const DATABASE = 'i44_cache_order'
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)
const store = servingFactStore(session)
const T = at('2026-11-30T10:00:00Z')
const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const RANGE = { fromDate: '2026-11-01', toDate: '2026-11-30' }
const cached = () => new CachedReadModel(new ClickHouseReadModel(session), new ClickHouseDataVersions(session), systemClock, { maxEntries: 100, maxStaleMs: 0 })
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

beforeAll(() => resetDatabase(session))
afterAll(async () => {
  await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  await session.close()
})

describe('read cache versions follow the data', () => {
  it('a probe while a funnel insert is half done (its slowest materialized view still running) caches nothing stale', async () => {
    // a view that runs between the version's and the data's sibling views (views run in name order) and takes 3 s
    await session.command(sql`CREATE TABLE ${db}.slow_sink (s UInt8) ENGINE = Null`)
    await session.command(sql`CREATE MATERIALIZED VIEW ${db}.e_slow_mv TO ${db}.slow_sink AS SELECT sleep(3) AS s FROM ${db}.funnel_events`)
    try {
      const reads = cached()
      const path = dimPath()
      const writing = store.append([funnelFact('Views', path, id(), T)], T)
      await sleep(1000)
      expect((await reads.funnelCounts(path.developerId, RANGE, {})).Views).toBe(0) // the data is not there yet
      await writing
      expect((await reads.funnelCounts(path.developerId, RANGE, {})).Views).toBe(1)
    } finally {
      await session.command(sql`DROP TABLE IF EXISTS ${db}.e_slow_mv`)
    }
  })

  it.each([
    ['ALTER DELETE', (dev: string) => sql`ALTER TABLE ${db}.developer_view_facts DELETE WHERE KeyDeveloperId = ${uuid(dev as Guid)}`],
    ['DROP PARTITION', () => sql`ALTER TABLE ${db}.developer_view_facts DROP PARTITION 202611`],
    ['TRUNCATE', () => sql`TRUNCATE TABLE ${db}.developer_view_facts`],
  ])('rows removed by %s are not answered from the cache', async (_, removal) => {
    const reads = cached()
    const dev = id()
    const s = id()
    await store.append([sessionFact({ sessionId: s }), viewFact(dimPath(dev), s, T)], T)
    expect((await reads.sessionMetrics(dev, NOV)).views.views).toBe(1)
    await session.command(removal(dev))
    await waitForMutations()
    expect((await reads.sessionMetrics(dev, NOV)).views.views).toBe(0)
  })
})

const waitForMutations = async (): Promise<void> => {
  for (let i = 0; i < 100; i++) {
    const [r] = await session.select<{ n: string }>(sql`SELECT count() AS n FROM system.mutations WHERE database = ${name(DATABASE)} AND is_done = 0`)
    if (Number(r?.n) === 0) return
    await sleep(100)
  }
  throw new Error('mutation not done')
}
