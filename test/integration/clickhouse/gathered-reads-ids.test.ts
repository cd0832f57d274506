import { describe, expect, it } from 'vitest'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { Guid } from '../../../src/domain/guid.js'
import { at, dimPath, funnelFact, id, upperDimFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { servingFactStore } from '../../support/clickhouse.js'
import { serverAndChdb } from '../../support/server-and-chdb.js'

// Issue 64: a host may spell an id in upper case (its own strings cast to Guid); the server answers
// in lower case: many developers' funnels and many names read at once answer under the caller's
// spelling (64.6). A gathered names read of thousands of ids stays within 18.16's query size (64.2).
describe.each(serverAndChdb('dev_stats_gathered_read_ids'))('reads of many ids on %s', (_, session) => {
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

  it('answer the names of thousands of ids in one read, an upper-case one under its spelling', async () => {
    await migrate(session)
    const named = id()
    await servingFactStore(session).append([upperDimFact('project', named, at('2026-11-20T10:00:00Z'), 'Tower')], Date.now())
    const upper = named.toUpperCase() as Guid
    const ids = [upper, ...Array.from({ length: 8000 }, () => id())]
    const names = await new ClickHouseReadModel(session).dimensionNames('project', ids)
    expect(names).toEqual(new Map([[upper, 'Tower']]))
  })
})
