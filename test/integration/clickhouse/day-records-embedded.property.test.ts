import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { resetDatabase } from '../../support/clickhouse.js'
import { dayRecordsPropertyOnClickHouse } from '../../support/day-records-scenario.js'

// Issue 45's proof on a current ClickHouse in-process (chdb), bound query parameters.
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-day-records-'))
const session = embeddedSession({ path: dir, database: 'dev_stats_day_records_property' })
beforeAll(() => resetDatabase(session))
afterAll(async () => {
  await session.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('day records on chdb answer what the serving rows answer', () => {
  it('for every developer and whole-day period, whatever the order, races, reads between writes and crashes', async () => {
    await dayRecordsPropertyOnClickHouse(session, 25)
  }, 900_000)
})
