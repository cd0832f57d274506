import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { DEFAULT_MIGRATIONS_DIR, migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { backfillServing } from '../../../src/adapters/clickhouse/serving-backfill.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { preflight } from '../../../src/cli/check/preflight.js'
import { createDevStatsIngest } from '../../../src/composition/create-dev-stats-ingest.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl } from '../../support/clickhouse.js'

// A store that held facts before migration 0008 (issue 44.3): check and start say so until the
// backfill finished; a day whose facts an older instance (no serving step) wrote after its
// backfill is done again by the next backfill.
const DATABASE = 'i44_serving_completeness'
const url = clickhouseUrl()
const session = serverSession({ url, user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)
const olderInstance = new ClickHouseFactStore(session) // facts only, as before 0008
const T = at('2026-11-20T10:00:00Z')
const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const until0007 = mkdtempSync(join(tmpdir(), 'dev-stats-until-0007-'))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const storeCheck = async () => {
  for await (const r of preflight({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: url, DEV_STATS_CLICKHOUSE_DATABASE: DATABASE, DEV_STATS_BROKER: 'memory' })) {
    if (r.check === 'store') return r
  }
  throw new Error('no store check')
}

beforeAll(async () => {
  for (const f of readdirSync(DEFAULT_MIGRATIONS_DIR).filter((f) => f < '0008')) cpSync(join(DEFAULT_MIGRATIONS_DIR, f), join(until0007, f))
  await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
})
afterAll(async () => {
  await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  await session.close()
  rmSync(until0007, { recursive: true, force: true })
})

describe('a store migrated before its first fact', () => {
  // the first start after migrate, and every restart: facts came through the serving step, the
  // funnel tables are still empty (an empty table has no minimum; 18.16's min() of no rows is 0)
  it('is complete: check passes and start starts, with session and view facts but no funnel rows yet', async () => {
    await migrate(session)
    const s = id()
    await new ClickHouseFactStore(session).append([sessionFact({ sessionId: s, at: T }), viewFact(dimPath(id()), s, T)], Date.now())
    expect(await storeCheck()).toMatchObject({ outcome: 'ok' })
    const service = createDevStatsIngest({ config: { store: 'clickhouse', clickhouse: { url, database: DATABASE } }, ports: { broker: new InMemoryBroker() } })
    try {
      await service.start()
    } finally {
      await service.stop()
    }
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  })
})

describe('serving tables after migrate on a store with facts', () => {
  const dev = id()
  it('check fails and start refuses until the backfill finished; then both pass', async () => {
    await migrate(session, until0007)
    const s = id()
    await olderInstance.append([sessionFact({ sessionId: s, at: T }), viewFact(dimPath(dev), s, T)], Date.now())
    await sleep(1100)
    await migrate(session)
    expect(await storeCheck()).toMatchObject({ outcome: 'fail', detail: expect.stringContaining('run dev-stats-ingest backfill') })
    const service = createDevStatsIngest({ config: { store: 'clickhouse', clickhouse: { url, database: DATABASE } }, ports: { broker: new InMemoryBroker() } })
    try {
      await expect(service.start()).rejects.toMatchObject({ name: 'StartupError', failure: 'serving-incomplete' })
    } finally {
      await service.stop()
    }
    await backfillServing(session, () => undefined)
    expect(await storeCheck()).toMatchObject({ outcome: 'ok' })
    expect((await new ClickHouseReadModel(session).sessionMetrics(dev, NOV)).views.views).toBe(1)
  })

  it('a day whose facts are newer than its backfill (an older instance still writing) is done again', async () => {
    const serving = new ClickHouseReadModel(session)
    await backfillServing(session, () => undefined) // nothing to do after the first case, whatever it found
    expect((await serving.sessionMetrics(dev, NOV)).views.views).toBe(1)
    await sleep(1100)
    const s = id()
    await olderInstance.append([sessionFact({ sessionId: s, at: T }), viewFact(dimPath(dev), s, T)], Date.now())
    expect((await serving.sessionMetrics(dev, NOV)).views.views).toBe(1) // the serving tables miss it
    await backfillServing(session, () => undefined)
    expect((await serving.sessionMetrics(dev, NOV)).views.views).toBe(2)
    expect((await serving.sessionMetrics(dev, NOV)).views).toEqual((await new ClickHouseReadModel(session, 'facts').sessionMetrics(dev, NOV)).views)
  })
})
