import { describe, expect, it } from 'vitest'
import { funnelCountsKey } from '../../../../src/adapters/cache/cached-read-model.js'
import { HIERARCHY_FILTER_FIELDS, type HierarchyFilter } from '../../../../src/application/ports/read-model.port.js'
import type { Guid } from '../../../../src/domain/guid.js'

const dev = 'd0000000-0000-4000-8000-000000000001' as Guid
const range = { fromDate: '2026-11-01', toDate: '2026-11-30' }
const a = 'a0000000-0000-4000-8000-000000000001' as Guid
const key = (filter: HierarchyFilter, fields?: readonly string[]) => JSON.stringify(funnelCountsKey(dev, range, filter, fields))

describe("the read cache's funnel key follows the filter's one declaration", () => {
  it('two filters differing in any declared level are two questions; the same filter is one', () => {
    for (const field of HIERARCHY_FILTER_FIELDS) expect(key({ [field]: a })).not.toBe(key({}))
    expect(key({ projectId: a })).not.toBe(key({ buildingId: a }))
    expect(key({ projectId: a, layoutId: a })).toBe(key({ layoutId: a, projectId: a }))
  })

  it('a level added to the declaration is in the key without touching the cache', () => {
    const withUnit = [...HIERARCHY_FILTER_FIELDS, 'unitId']
    const unit = (id: string) => ({ unitId: id }) as HierarchyFilter
    expect(key(unit('u1'), withUnit)).not.toBe(key(unit('u2'), withUnit))
    // what a hand-written key list did: a field it did not name made two questions share one answer
    expect(key(unit('u1'))).toBe(key(unit('u2')))
  })
})
