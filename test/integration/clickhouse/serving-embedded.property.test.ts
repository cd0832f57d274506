import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, it } from 'vitest'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { servingPropertyOnClickHouse } from '../../support/serving-scenario.js'

// Issue 33's proof on a current ClickHouse in-process (chdb), bound query parameters.
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-serving-'))
const session = embeddedSession({ path: dir, database: 'dev_stats_serving_property' })
afterAll(async () => {
  await session.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('serving tables on chdb answer what the raw facts answer', () => {
  it('any order, redeliveries, moved property objects, serving steps failing after the facts; then the backfill', async () => {
    await servingPropertyOnClickHouse(session, 25)
  }, 900_000)
})
