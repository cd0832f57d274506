import { describe, expect, it } from 'vitest'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { Guid } from '../../../src/domain/guid.js'
import { at, dimPath, funnelFact, id } from '../../../src/testing/contracts/fact-rows.mother.js'
import { servingFactStore } from '../../support/clickhouse.js'
import { serverAndChdb } from '../../support/server-and-chdb.js'

// Issue 64.6: a host may spell a developer's id in upper case (its own strings cast to Guid); the
// server answers in lower case. Many developers' funnels read at once answer under the caller's spelling.
describe.each(serverAndChdb('dev_stats_gathered_funnel_ids'))('funnels of many developers on %s', (_, session) => {
  it('answer an upper-case id with its counts, not zeros', async () => {
    await migrate(session)
    const developer = dimPath()
    await servingFactStore(session).append([funnelFact('Views', developer, id(), at('2026-11-20T10:00:00Z'))], Date.now())
    const upper = developer.developerId.toUpperCase() as Guid
    const range = { fromDate: '2026-11-01', toDate: '2026-11-30' }
    const many = await new ClickHouseReadModel(session).funnelCountsOfDevelopers([upper, developer.developerId], range)
    expect(many.get(upper)?.Views).toBe(1)
    expect(many.get(developer.developerId)?.Views).toBe(1)
  })
})
