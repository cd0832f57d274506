import { describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseLinkPartitions } from '../../../src/adapters/clickhouse/clickhouse-link-partitions.js'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { LinkRetention } from '../../../src/application/serving/link-retention.js'
import { dayOf } from '../../../src/domain/serving-links.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { serverAndChdb } from '../../support/server-and-chdb.js'

// Issue 44.4: the link tables are kept within the accepted lateness as a TTL would keep them
// (18.16 has none), on the server and on chdb: the months older than the window are dropped from
// all three, the facts stay, and the newer months answer their lookups as before.
const DATABASE = 'i44_link_retention'
const stores = serverAndChdb(DATABASE)
const db = ident(DATABASE)
const NOW = at('2026-12-04T12:00:00Z') // 30 days of lateness: link rows kept from 2026-10-02 on
const OLD = at('2026-01-15T10:00:00Z')
const RECENT = at('2026-11-20T10:00:00Z')

describe.each(stores)('link retention on %s', (_, session) => {
  const partitions = new ClickHouseLinkPartitions(session)
  const months = async () => (await partitions.list()).map((p) => `${p.table}/${p.partition}`).sort()
  const count = async (table: string) => Number((await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${db}.${ident(table)}`))[0]?.n)

  it('drops the months older than the window from every link table, and nothing else', async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
    await migrate(session)
    const dev = dimPath()
    const [oldSession, newSession, oldView, newView] = [id(), id(), id(), id()]
    await new ClickHouseFactStore(session).append([
      sessionFact({ sessionId: oldSession, at: OLD }), viewFact(dev, oldSession, OLD, true, oldView),
      sessionFact({ sessionId: newSession, at: RECENT }), viewFact(dev, newSession, RECENT, true, newView),
    ], NOW)
    expect(await months()).toEqual(['session_links/202601', 'session_links/202611', 'session_view_links/202601', 'session_view_links/202611', 'view_links/202601', 'view_links/202611'])

    const dropped: number[] = []
    const retention = new LinkRetention(partitions, 30, { now: () => NOW }, silentLogger, (n) => dropped.push(n))
    expect(await retention.pass()).toBe(3)
    expect(dropped).toEqual([1, 1, 1])
    expect(await months()).toEqual(['session_links/202611', 'session_view_links/202611', 'view_links/202611'])
    expect(await retention.pass()).toBe(0)

    // the facts stay; only lookups on the dropped days find nothing
    expect(await count('session_facts')).toBe(2)
    expect(await count('property_object_view_facts')).toBe(2)
    const index = new ClickHouseServingIndex(session)
    expect(await index.viewLinks([dayOf(OLD)], [oldView])).toEqual([])
    expect(await index.viewLinks([dayOf(RECENT)], [newView])).toHaveLength(1)
    expect(await index.sessionLinks([dayOf(RECENT)], [newSession])).toHaveLength(1)
    expect(await index.sessionDevelopers([dayOf(RECENT)], [newSession])).toEqual([{ day: dayOf(RECENT), sessionId: newSession, developerId: dev.developerId }])
  })

  it('a lateness of a year keeps every month of the year', async () => {
    await new ClickHouseFactStore(session).append([viewFact(dimPath(), id(), OLD)], NOW)
    expect(await new LinkRetention(partitions, 365, { now: () => NOW }, silentLogger).pass()).toBe(0)
    expect(await months()).toContain('view_links/202601')
  })
})
