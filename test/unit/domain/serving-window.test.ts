import { describe, expect, it } from 'vitest'
import { dayOf, sessionDays, SESSION_LINK_MAX_DAYS } from '../../../src/domain/serving-links.js'
import { assumptionBreach, firstLinkDayKept, linkRetentionDays, partitionsBefore } from '../../../src/domain/serving-window.js'
import { at, dimPath, id, sessionFact, viewFact, funnelFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import type { FactRow } from '../../../src/domain/fact-row.js'

const DAY = 86_400_000
const NOW = at('2026-12-04T12:00:00Z')

const session = (startedAt: number, lastActivityAt: number, eventTime = lastActivityAt): FactRow => {
  const f = sessionFact({ at: startedAt })
  if (f.table !== 'session_facts') throw new Error('not a session fact')
  return { table: 'session_facts', row: { ...f.row, startedAt, lastActivityAt, eventTime } }
}

describe('the link window', () => {
  it('keeps the lateness plus a longest session plus a neighbour day', () => {
    expect(linkRetentionDays(30)).toBe(30 + SESSION_LINK_MAX_DAYS + 1)
    expect(firstLinkDayKept(dayOf(NOW), 30)).toBe(dayOf(NOW) - 63)
  })

  it('drops a month only when every one of its days is before the first kept day', () => {
    const firstKept = dayOf(at('2026-10-01T00:00:00Z'))
    expect(partitionsBefore(['202512', '202601', '202609', '202610', '202611', 'tuple()', '2026'], firstKept)).toEqual(['202512', '202601', '202609'])
    // one day later: October's first day is out, but the rest of October is not
    expect(partitionsBefore(['202610'], firstKept + 1)).toEqual([])
    expect(partitionsBefore(['202612'], dayOf(at('2027-01-01T00:00:00Z')))).toEqual(['202612'])
  })
})

describe('facts outside the producers\' assumptions', () => {
  it('a session or view fact ingested more than the lateness after its EventTime is late', () => {
    const s = id()
    expect(assumptionBreach(viewFact(dimPath(), s, NOW - 30 * DAY), NOW, 30)).toBeUndefined()
    expect(assumptionBreach(viewFact(dimPath(), s, NOW - 30 * DAY - 1000), NOW, 30)).toBe('late')
    expect(assumptionBreach(session(NOW - 31 * DAY, NOW - 31 * DAY + 60_000), NOW, 30)).toBe('late')
    expect(assumptionBreach(session(NOW - 31 * DAY, NOW - 31 * DAY + 60_000), NOW, 365)).toBeUndefined()
  })

  it('a session linked under more days than sessionDays keeps is a long session', () => {
    const start = at('2026-11-01T12:00:00Z')
    // [start - 1 h, last + 1 h] on exactly 32 days: linked whole
    const last32 = at('2026-12-02T12:00:00Z')
    expect(sessionDays(start, last32)).toHaveLength(32)
    expect(assumptionBreach(session(start, last32), last32, 30)).toBeUndefined()
    // one more day: sessionDays stops at 32, the 33rd day's views are not linked
    const last33 = last32 + DAY
    expect(assumptionBreach(session(start, last33), last33, 30)).toBe('long-session')
  })

  it('other facts carry no serving assumption', () => {
    expect(assumptionBreach(funnelFact('Views', dimPath(), id(), NOW - 400 * DAY), NOW, 30)).toBeUndefined()
  })
})
