import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDayRecords } from '../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseServingIndex } from '../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { DeveloperWrite } from '../../src/domain/developer-writes.js'
import { id } from '../../src/testing/contracts/fact-rows.mother.js'
import { resetDatabase } from '../support/clickhouse.js'
import { clusterSession, syncReplica } from '../support/clickhouse-cluster.js'

// Issue 63.1: the write counts are a Replicated table on a cluster, which by default drops a block
// equal to one of its last 100 (insert_deduplicate): a second one-view batch of the same developer
// and day has a byte-identical count body, and without its count the day's record would be served
// as current without that view. Every count insert is counted.
const DATABASE = 'i63_counter_inserts'
const session = clusterSession(DATABASE, 1)
const DAY = Math.floor(Date.now() / 86_400_000)

beforeAll(async () => {
  await resetDatabase(session)
})
afterAll(async () => {
  await session.close()
})

describe('write counts on a replicated cluster', () => {
  it('two equal count inserts count twice, through either replica', async () => {
    const developer = id()
    const write: DeveloperWrite[] = [{ keyDeveloperId: developer, source: 'views', day: DAY, rows: 1 }]
    const serving = new ClickHouseServingIndex(session)
    await serving.written(write)
    await serving.written(write)
    for (const n of [1, 2] as const) {
      await syncReplica(DATABASE, n)
      const through = clusterSession(DATABASE, n)
      try {
        expect((await new ClickHouseDayRecords(through).dayWrites(developer, DAY, DAY)).views.get(DAY), `through replica ${n}`).toBe(2)
      } finally {
        await through.close()
      }
    }
  })
})
