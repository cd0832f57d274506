import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDataVersions } from '../../../src/adapters/clickhouse/clickhouse-data-versions.js'
import { ClickHouseDayRecords } from '../../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { SESSION_DAYS_OFF } from '../../../src/adapters/clickhouse/serving-completeness.js'
import { ident, name, sql, uuid } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { DayRecordStore } from '../../../src/application/ports/day-records.port.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import type { Guid } from '../../../src/domain/guid.js'
import { dayOf } from '../../../src/domain/serving-links.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, resetDatabase, servingFactStore } from '../../support/clickhouse.js'

// Issue 62: what a day record's stamp and the read cache's version rest on, on the server and on
// chdb: one counter for both, the record stored last wins, a month's first insert stales only the
// records that reach into it, lost counts never read as empty days, and no record is trusted while
// an instance writing without counts may still be running.
const DATABASE = 'dev_stats_day_record_stamps'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-day-record-stamps-'))
const stores = {
  'the ClickHouse server': serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE }),
  chdb: embeddedSession({ path: dir, database: DATABASE }),
}
const NOVEMBER = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const NOV_20 = at('2026-11-20T10:00:00Z')

beforeAll(async () => {
  for (const session of Object.values(stores)) await resetDatabase(session)
})
afterAll(async () => {
  for (const session of Object.values(stores)) await session.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A developer's session with one view, through the serving step (facts, serving rows, counts). */
const visit = async (session: ClickHouseSession, developer: ReturnType<typeof dimPath>, time: number, durationSeconds = 300) => {
  const sessionId = id()
  await servingFactStore(session).append([sessionFact({ sessionId, at: time - 60_000, durationSeconds }), viewFact(developer, sessionId, time)], Date.now())
}

/** The day record of the developer's November 20, once stored (a read stores what it computed after answering). */
const storedNov20 = async (records: DayRecordStore, developerId: Guid) => {
  const day = dayOf(NOV_20)
  for (let i = 0; i < 100; i++) {
    const [kept] = await records.records(developerId, day, day)
    if (kept) return kept
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error('the record of November 20 was not stored')
}

/** The store's day records, counting the computations. */
const counting = (records: DayRecordStore) => {
  const counted = { computed: 0 }
  const store: DayRecordStore = {
    dayWrites: (...a) => records.dayWrites(...a),
    records: (...a) => records.records(...a),
    recordInputs: (...a) => {
      counted.computed++
      return records.recordInputs(...a)
    },
    storeRecords: (...a) => records.storeRecords(...a),
  }
  return { store, counted }
}

describe.each(Object.entries(stores))('day record stamps on %s', (_, session) => {
  const db = ident(DATABASE)
  const serving = new ClickHouseReadModel(session, 'serving')
  const records = new ClickHouseDayRecords(session)

  it("moves a developer's read cache version with the same counts the records are stamped by (defect 2)", async () => {
    const developer = dimPath()
    const other = dimPath()
    await visit(session, developer, NOV_20)
    const versions = new ClickHouseDataVersions(session)
    const before = await versions.developerVersions([developer.developerId])
    await session.command(sql`INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows) SELECT ${uuid(other.developerId)}, toDate('2026-11-20'), 'views', 1`)
    expect(await versions.developerVersions([developer.developerId])).toEqual(before)
    await session.command(sql`INSERT INTO ${db}.developer_day_writes (KeyDeveloperId, Day, Source, Rows) SELECT ${uuid(developer.developerId)}, toDate('2026-11-20'), 'views', 1`)
    expect((await versions.developerVersions([developer.developerId])).get(developer.developerId)?.get('views')).not.toEqual(before.get(developer.developerId)?.get('views'))
  })

  it('reads at most maxViews views into the process: a run holding more answers undefined (issue 66)', async () => {
    const developer = dimPath()
    for (let i = 0; i < 3; i++) await visit(session, developer, NOV_20 + i * 60_000)
    const day = dayOf(NOV_20)
    expect(await records.recordInputs(developer.developerId, day, day, 2)).toBeUndefined()
    expect((await records.recordInputs(developer.developerId, day, day, 3))?.views).toHaveLength(3)
  })

  it('keeps the record stored last, whatever its stamp (defect 3)', async () => {
    const developer = dimPath()
    await visit(session, developer, NOV_20)
    await new DayRecordsReadModel(serving, records).sessionMetrics(developer.developerId, NOVEMBER)
    const day = dayOf(NOV_20)
    const kept = await storedNov20(records, developer.developerId)
    await records.storeRecords(developer.developerId, [{ ...kept, stamp: { ...kept.stamp, viewWrites: kept.stamp.viewWrites + 100 } }])
    await new Promise((r) => setTimeout(r, 5))
    await records.storeRecords(developer.developerId, [kept])
    expect((await records.records(developer.developerId, day, day))[0]?.stamp).toEqual(kept.stamp)
  })

  it("leaves other months' records current when a month gets its first rows (defect 4)", async () => {
    const developer = dimPath()
    await visit(session, developer, NOV_20)
    await new DayRecordsReadModel(serving, records).sessionMetrics(developer.developerId, NOVEMBER)
    await storedNov20(records, developer.developerId)
    // another developer's first rows of a month no table has yet
    await visit(session, dimPath(), at('2027-03-10T10:00:00Z'))
    const { store, counted } = counting(records)
    expect(await new DayRecordsReadModel(serving, store).sessionMetrics(developer.developerId, NOVEMBER)).toEqual(await serving.sessionMetrics(developer.developerId, NOVEMBER))
    expect(counted.computed).toBe(0)
  })

  it('does not read days whose counts were removed as empty (defect 6)', async () => {
    const developer = dimPath()
    await visit(session, developer, NOV_20)
    const reads = new DayRecordsReadModel(serving, records)
    await reads.sessionMetrics(developer.developerId, NOVEMBER)
    await storedNov20(records, developer.developerId)
    await visit(session, developer, NOV_20 + 86_400_000)
    await session.command(sql`TRUNCATE TABLE ${db}.developer_day_writes`)
    expect(await reads.sessionMetrics(developer.developerId, NOVEMBER)).toEqual(await serving.sessionMetrics(developer.developerId, NOVEMBER))
    expect((await reads.sessionMetrics(developer.developerId, NOVEMBER)).sessions.sessions).toBe(2)
  })

  it('trusts no record within two minutes of a record of an instance writing without counts', async () => {
    const first = dayOf(NOVEMBER.from)
    expect((await records.dayWrites(dimPath().developerId, first, first)).counted).toBe(true)
    await session.command(sql`INSERT INTO ${db}.serving_backfill (Step, Chunk, DoneAt) SELECT ${name(SESSION_DAYS_OFF)}, today(), now() - 180`)
    expect((await records.dayWrites(dimPath().developerId, first, first)).counted).toBe(true)
    await session.command(sql`INSERT INTO ${db}.serving_backfill (Step, Chunk, DoneAt) SELECT ${name(SESSION_DAYS_OFF)}, today(), now()`)
    expect((await records.dayWrites(dimPath().developerId, first, first)).counted).toBe(false)
  })
})
