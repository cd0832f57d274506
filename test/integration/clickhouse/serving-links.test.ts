import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { Guid } from '../../../src/domain/guid.js'
import { sessionDays } from '../../../src/domain/serving-links.js'
import { at, id, sessionFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'

// migration 0008's session_links_mv and domain/serving-links.ts's sessionDays must agree day for
// day: the ingest looks views up on the days the domain computes, the view side finds a session
// fact on the days the view computed. Edges: the hour of margin at midnight, a session ending
// before it starts, the 32-day cap, the first day of 1970.
const CASES: readonly [string, string, string][] = [
  ['starts one hour after midnight: the margin stays on that day', '2026-11-30T01:00:00Z', '2026-11-30T02:00:00Z'],
  ['starts a second earlier: the margin reaches the day before', '2026-11-30T00:59:59Z', '2026-11-30T02:00:00Z'],
  ['ends within an hour of midnight: the margin reaches the next day', '2026-11-30T20:00:00Z', '2026-11-30T23:00:00Z'],
  ['ends before it starts (a producer bug): its start alone', '2026-11-30T12:00:00Z', '2026-11-29T12:00:00Z'],
  ['forty days: capped at 32 from its first day', '2026-10-01T12:00:00Z', '2026-11-10T12:00:00Z'],
  ['the first hour of 1970: no day before day 0', '1970-01-01T00:30:00Z', '1970-01-01T00:40:00Z'],
]

const linkedDays = async (session: ClickHouseSession): Promise<void> => {
  await resetDatabase(session)
  const store = new ClickHouseFactStore(session)
  const index = new ClickHouseServingIndex(session)
  for (const [, start, end] of CASES) {
    const sessionId = id()
    const fact = sessionFact({ sessionId, at: at(start) })
    await store.append([{ ...fact, row: { ...(fact.row as object), lastActivityAt: at(end) } } as typeof fact], at('2026-12-01T00:00:00Z'))
    const expected = sessionDays(at(start), at(end))
    const wide = Array.from({ length: expected.length + 6 }, (_, i) => (expected[0] ?? 0) - 3 + i).filter((d) => d >= 0)
    // behind 6,000 other ids: the lookup goes out in chunks whose SQL text 18.16 accepts
    const ids = [...Array.from({ length: 6000 }, () => id()), sessionId] as Guid[]
    const found = (await index.sessionLinks(wide, ids)).map((l) => l.day).sort((a, b) => a - b)
    expect({ start, end, days: found }).toEqual({ start, end, days: expected })
  }
}

describe('session_links_mv links a session fact under the days sessionDays computes', () => {
  it.each(CASES)('%s (domain rule)', (_, start, end) => {
    const days = sessionDays(at(start), at(end))
    expect(days.length).toBeGreaterThan(0)
    expect(days.length).toBeLessThanOrEqual(32)
  })

  it('on the 18.16 server', async () => {
    const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'dev_stats_serving_links' })
    try {
      await linkedDays(session)
    } finally {
      await session.close()
    }
  })

  it('on chdb', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-links-'))
    const session = embeddedSession({ path: dir, database: 'dev_stats_serving_links' })
    try {
      await linkedDays(session)
    } finally {
      await session.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

