import { afterAll, beforeAll, describe, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { dayRecordsPropertyOnClickHouse } from '../../support/day-records-scenario.js'

// Issue 45's proof on the 18.16 server (see test/support/day-records-scenario.ts): the oracle
// is the serving-row read of issue 33 on the same rows.
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'dev_stats_day_records_property' })
beforeAll(() => resetDatabase(session))
afterAll(() => session.close())

describe('day records on the ClickHouse server answer what the serving rows answer', () => {
  it('for every developer and whole-day period, whatever the order, races, reads between writes and crashes', async () => {
    await dayRecordsPropertyOnClickHouse(session, 25)
  }, 900_000)
})
