import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import type { Guid } from '../../../src/domain/guid.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase, summarizedStore } from '../../support/clickhouse.js'

// The fact store keeping the day summaries (facts, serving rows, then SessionDaysServingIndex's
// states and summaries) and the read model answering whole days from them. A batch of thousands
// of sessions of one developer (more keys than one lookup takes, each lookup past 18.16's default
// max_query_size) and a session across midnight: on the server and on chdb, the summaries answer
// what the serving rows answer.
const DATABASE = 'dev_stats_session_days_wired'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-session-days-batch-'))
const stores = {
  'the ClickHouse server': serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE }),
  chdb: embeddedSession({ path: dir, database: DATABASE }),
}
const DAY = 86_400_000
const D1 = at('2026-11-20T00:00:00Z')

beforeAll(async () => {
  for (const session of Object.values(stores)) await resetDatabase(session)
})
afterAll(async () => {
  for (const session of Object.values(stores)) await session.close()
  rmSync(dir, { recursive: true, force: true })
})

describe.each(Object.entries(stores))('%s keeping day summaries answers whole days from them', (_, session) => {
  it('thousands of sessions in one batch, views across midnight, a duration replaced', async () => {
    const summarized = summarizedStore(session)
    const path = dimPath()
    const sessions = Array.from({ length: 6000 }, () => id())
    const first = sessions[0] as Guid
    const rows: FactRow[] = sessions.flatMap((s, i) => [
      sessionFact({ sessionId: s, at: D1 + (i % 40) * 3_600_000, durationSeconds: 10 + i, userId: i % 3 === 0 ? null : id() }),
      viewFact(path, s, D1 + (i % 40) * 3_600_000),
    ])
    // the first session also has a view the next day, and a later fact replaces its duration
    rows.push(viewFact(path, first, D1 + DAY + 60_000))
    await summarized.store.append(rows, Date.now())
    await summarized.store.append([sessionFact({ sessionId: first, at: D1, durationSeconds: 9999 })], Date.now() + 2000)
    const oracle = new ClickHouseReadModel(session, 'serving')
    for (const [from, to] of [[D1, D1 + DAY], [D1 + DAY, D1 + 2 * DAY], [D1, D1 + 2 * DAY], [D1 - DAY, D1 + 3 * DAY]] as const) {
      const period = { from, to }
      const [expected, actual] = await Promise.all([
        Promise.all([oracle.sessionTotals(path.developerId, period), oracle.viewTotals(path.developerId, period)]),
        Promise.all([summarized.readModel.sessionTotals(path.developerId, period), summarized.readModel.viewTotals(path.developerId, period)]),
      ])
      expect(actual, `${new Date(from).toISOString()}..${new Date(to).toISOString()}`).toEqual(expected)
    }
    const whole = await summarized.readModel.sessionTotals(path.developerId, { from: D1, to: D1 + 2 * DAY })
    expect(whole.sessions).toBe(6000)
    expect(whole.maxDurationSeconds).toBe(9999)
  }, 120_000)
})
