import { afterAll, describe, it } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { servingPropertyOnClickHouse } from '../../support/serving-scenario.js'

// Issue 33's proof on the 18.16 server (see test/support/serving-scenario.ts).
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'dev_stats_serving_property' })
afterAll(() => session.close())

describe('serving tables on the ClickHouse server answer what the raw facts answer', () => {
  it('any order, redeliveries, moved property objects, serving steps failing after the facts; then the backfill', async () => {
    await servingPropertyOnClickHouse(session, 25)
  }, 900_000)
})
