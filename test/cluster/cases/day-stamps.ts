import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDayRecords } from '../../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { DeveloperWrite } from '../../../src/domain/developer-writes.js'
import { id } from '../../../src/testing/contracts/fact-rows.mother.js'
import { sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { resetDatabase } from '../../support/clickhouse.js'
import { CLUSTER, clusterSession, syncReplica } from '../../support/clickhouse-cluster.js'

// Issue 63.1-2, what stamps the day records on a cluster: the write counts are a Replicated table,
// which by default drops a block equal to one of its last 100 (insert_deduplicate): a second
// one-view batch of the same developer and day has a byte-identical count body, and without its
// count the day's record would be served as current without that view. And rows removed by hand
// (DROP PARTITION ON CLUSTER of the Replicated tables) change the removal token.
const DATABASE = 'i63_day_stamps'
const session = clusterSession(DATABASE, 1)
const DAY = Math.floor(Date.now() / 86_400_000)

describe('write counts on a replicated cluster', () => {
  beforeAll(async () => {
    await resetDatabase(session)
  })
  afterAll(async () => {
    await session.close()
  })

  it('two equal count inserts are two writes, through either replica', async () => {
    const developer = id()
    const write: DeveloperWrite[] = [{ keyDeveloperId: developer, source: 'views', day: DAY, rows: 1 }]
    const serving = new ClickHouseServingIndex(session)
    const counts = async () => {
      const seen: number[] = []
      for (const n of [1, 2] as const) {
        await syncReplica(DATABASE, n)
        const through = clusterSession(DATABASE, n)
        try {
          seen.push((await new ClickHouseDayRecords(through).dayWrites(developer, DAY, DAY)).views.get(DAY) ?? 0)
        } finally {
          await through.close()
        }
      }
      return seen
    }
    await serving.written(write)
    const once = await counts()
    await serving.written(write)
    const twice = await counts()
    // read from every replica, a count both hold is summed twice: only its growth is asked of it
    for (const r of [0, 1]) expect(twice[r], `through replica ${r + 1}`).toBeGreaterThan(once[r] ?? 0)
  })

  it('a partition dropped on the cluster changes the removal token of its month', async () => {
    const developer = id()
    await new ClickHouseServingIndex(session).written([{ keyDeveloperId: developer, source: 'views', day: DAY, rows: 1 }])
    const records = new ClickHouseDayRecords(session)
    const before = (await records.dayWrites(developer, DAY, DAY)).removals
    expect(before.months.size, 'the month of the count is seen').toBeGreaterThan(0)
    const month = new Date(DAY * 86_400_000).toISOString().slice(0, 7).replace('-', '')
    await session.ddl(`ALTER TABLE ${DATABASE}.developer_day_writes_local ON CLUSTER ${CLUSTER} DROP PARTITION ${month}`)
    const after = (await records.dayWrites(developer, DAY, DAY)).removals
    expect(after).not.toEqual(before)
  })
})
