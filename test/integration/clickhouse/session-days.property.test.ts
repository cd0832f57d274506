import { afterAll, beforeAll, describe, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { sessionDaysPropertyOnClickHouse } from '../../support/session-days-scenario.js'

// Issue 45's proof on the 18.16 server (see test/support/session-days-scenario.ts): the oracle
// is the serving-row read of issue 33 on the same rows.
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'dev_stats_session_days_property' })
beforeAll(() => resetDatabase(session))
afterAll(() => session.close())

describe('day summaries on the ClickHouse server answer what the serving rows answer', () => {
  it('for every developer and whole-day period, whatever the order, races and crashes', async () => {
    await sessionDaysPropertyOnClickHouse(session, 25)
  }, 900_000)
})
