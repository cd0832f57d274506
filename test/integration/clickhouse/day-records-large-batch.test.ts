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
import { clickhouseUrl, resetDatabase, recordsStore } from '../../support/clickhouse.js'

// The fact store raising the per-day counts (facts, serving rows, then the counts) and the read
// model answering whole days from day records. A batch of thousands of sessions of one developer
// (their facts' lookup past 18.16's default max_query_size), a session across midnight, and its
// duration replaced after a read stored the day's record: on the server and on chdb, the records
// answer what the serving rows answer.
const DATABASE = 'dev_stats_day_records_wired'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-day-records-batch-'))
const stores = {
  'the ClickHouse server': serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE }),
  chdb: embeddedSession({ path: dir, database: DATABASE }),
}
const DAY = 86_400_000
const D1 = at('2026-11-20T00:00:00Z')
/** A session fact whose session lasts into the next day (its views may lie there, as the serving tables assume). */
const spanning = (f: FactRow): FactRow => (f.table === 'session_facts' ? { ...f, row: { ...f.row, lastActivityAt: f.row.startedAt + DAY + 600_000 } } : f)

beforeAll(async () => {
  for (const session of Object.values(stores)) await resetDatabase(session)
})
afterAll(async () => {
  for (const session of Object.values(stores)) await session.close()
  rmSync(dir, { recursive: true, force: true })
})

describe.each(Object.entries(stores))('%s with day records answers whole days from them', (_, session) => {
  it('thousands of sessions in one batch, views across midnight, a duration replaced', async () => {
    const composed = recordsStore(session)
    const path = dimPath()
    const sessions = Array.from({ length: 8000 }, () => id())
    const first = sessions[0] as Guid
    const rows: FactRow[] = sessions.flatMap((s, i) => [
      sessionFact({ sessionId: s, at: D1 + (i % 40) * 3_600_000, durationSeconds: 10 + i, userId: i % 3 === 0 ? null : id() }),
      viewFact(path, s, D1 + (i % 40) * 3_600_000),
    ])
    // the first session also has a view the next day, within its span, and a later fact replaces its duration
    rows[0] = spanning(rows[0] as FactRow)
    rows.push(viewFact(path, first, D1 + DAY + 60_000))
    await composed.store.append(rows, Date.now())
    expect((await composed.readModel.sessionMetrics(path.developerId, { from: D1, to: D1 + 2 * DAY })).sessions.maxDurationSeconds).toBe(10 + 7999)
    await composed.store.append([spanning(sessionFact({ sessionId: first, at: D1, durationSeconds: 9999 }))], Date.now() + 2000)
    const oracle = new ClickHouseReadModel(session, 'serving')
    for (const [from, to] of [[D1, D1 + DAY], [D1 + DAY, D1 + 2 * DAY], [D1, D1 + 2 * DAY], [D1 - DAY, D1 + 3 * DAY]] as const) {
      const period = { from, to }
      const [expected, actual] = await Promise.all([oracle.sessionMetrics(path.developerId, period), composed.readModel.sessionMetrics(path.developerId, period)])
      expect(actual, `${new Date(from).toISOString()}..${new Date(to).toISOString()}`).toEqual(expected)
    }
    const whole = (await composed.readModel.sessionMetrics(path.developerId, { from: D1, to: D1 + 2 * DAY })).sessions
    expect(whole.sessions).toBe(8000)
    expect(whole.maxDurationSeconds).toBe(9999)
  }, 120_000)
})
