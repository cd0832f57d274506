import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { PROPERTY_OBJECT_UPSERTED_TOPIC } from '../../../src/application/handlers/property-object-upserted.handler.js'
import { SESSION_ENDED_TOPIC } from '../../../src/application/handlers/session-ended.handler.js'
import { VIEW_ENDED_TOPIC } from '../../../src/application/handlers/view-ended.handler.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { backfillServing } from '../../../src/adapters/clickhouse/serving-backfill.js'
import { ident, sql, uuid } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { preflight } from '../../../src/cli/check/preflight.js'
import type { Guid } from '../../../src/domain/guid.js'
import { createDevStatsIngest, type DevStatsIngest } from '../../../src/index.js'
import { InMemoryBroker } from '../../../src/testing.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewEndedPayload } from '../../support/events.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import { until } from '../../support/http.js'

// DEV_STATS_SESSION_DAY_SUMMARIES through the composition root on the 18.16 server: the ingest
// raises the per-day counts and the read side answers whole days from day records; a store that
// ran with them off is refused by check and start with them on until a summarizing backfill.
const DATABASE = 'i45_day_summaries_mode'
const url = clickhouseUrl()
const session = serverSession({ url, user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)
const NOV = { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') }
const running: DevStatsIngest[] = []

const service = (daySummaries: boolean, broker = new InMemoryBroker()) => {
  const s = createDevStatsIngest({
    config: { store: 'clickhouse', clickhouse: { url, database: DATABASE }, sessionDaySummaries: daySummaries, engine: { flushIntervalMs: 50 } },
    ports: { broker },
  })
  running.push(s)
  return { s, broker }
}

/** A developer's property object, `sessions` sessions with two views each; the views' ids. */
const feed = async (broker: InMemoryBroker, developerId: string, sessions: number) => {
  const p = path(developerId)
  await broker.producer().publish([binaryRecord(PROPERTY_OBJECT_UPSERTED_TOPIC, propertyObjectUpsertedPayload(p))])
  for (let i = 0; i < sessions; i++) {
    const sessionId = guid()
    await broker.producer().publish([
      binaryRecord(SESSION_ENDED_TOPIC, sessionEndedPayload({ SessionId: sessionId, DurationSeconds: 600 + i })),
      binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessionId)),
      binaryRecord(VIEW_ENDED_TOPIC, viewEndedPayload(p, sessionId)),
    ])
  }
}

const recordRows = async (developerId: Guid) =>
  Number((await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${db}.developer_day_records WHERE KeyDeveloperId = ${uuid(developerId)}`))[0]?.n ?? 0)

const storeCheck = async (daySummaries: boolean) => {
  const env = { DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: url, DEV_STATS_CLICKHOUSE_DATABASE: DATABASE, DEV_STATS_BROKER: 'memory', DEV_STATS_SESSION_DAY_SUMMARIES: String(daySummaries) }
  for await (const r of preflight(env)) if (r.check === 'store') return r
  throw new Error('no store check')
}

beforeAll(async () => {
  await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  await migrate(session)
})
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop()
})
afterAll(async () => {
  await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
  await session.close()
})

describe('DEV_STATS_SESSION_DAY_SUMMARIES on a ClickHouse server', () => {
  const developerId = guid() as Guid

  it('an empty store starts with them on; a month is answered from day records its read stored', async () => {
    expect(await storeCheck(true)).toMatchObject({ outcome: 'ok' })
    const { s, broker } = service(true)
    await s.start()
    await feed(broker, developerId, 4)
    const metrics = async () => E.getOrElseW(() => undefined)(await s.read.sessionMetrics({ developerId }, NOV))
    await until('the four sessions are read', async () => (await metrics())?.sessions === 4)
    expect(await metrics()).toMatchObject({ sessions: 4, userSessions: 4, minDurationSeconds: 600, maxDurationSeconds: 603, views: { views: 8, closedViews: 8 } })
    expect(await recordRows(developerId)).toBeGreaterThan(0)
    const serving = new ClickHouseReadModel(session, 'serving')
    expect((await serving.sessionMetrics(developerId, NOV)).sessions).toMatchObject({ sessions: 4, totalDurationSeconds: 2406 })
  })

  it('after a start with them off, check fails and start with them on refuses until the backfill summarized; then both pass', async () => {
    const off = service(false)
    await off.s.start()
    await feed(off.broker, developerId, 2)
    await until('the six sessions are stored', async () => (await new ClickHouseReadModel(session, 'serving').sessionMetrics(developerId, NOV)).sessions.sessions === 6)
    await off.s.stop()
    expect(await storeCheck(false)).toMatchObject({ outcome: 'ok' })
    expect(await storeCheck(true)).toMatchObject({ outcome: 'fail', detail: expect.stringContaining('DEV_STATS_SESSION_DAY_SUMMARIES off') })
    const refused = service(true).s
    await expect(refused.start()).rejects.toMatchObject({ name: 'StartupError', failure: 'serving-incomplete' })
    // why: the records the first read stored are still stamped current, as what was written with them off raised no per-day count
    expect(E.getOrElseW(() => undefined)(await refused.read.sessionMetrics({ developerId }, NOV))).toMatchObject({ sessions: 4 })

    await new Promise((r) => setTimeout(r, 1100)) // the backfill's record is as of its start, in whole seconds
    await backfillServing(session, () => undefined, { daySummaries: true })
    expect(await storeCheck(true)).toMatchObject({ outcome: 'ok' })
    const on = service(true)
    await on.s.start()
    expect(E.getOrElseW(() => undefined)(await on.s.read.sessionMetrics({ developerId }, NOV))).toMatchObject({ sessions: 6, views: { views: 12 } })
  })

  it('an instance with them off that ran through the backfill: its next record of the mode (every minute, and at stop) refuses the store again', async () => {
    const off = service(false)
    await off.s.start()
    await new Promise((r) => setTimeout(r, 1100))
    await backfillServing(session, () => undefined, { daySummaries: true })
    expect(await storeCheck(true)).toMatchObject({ outcome: 'ok' })
    await feed(off.broker, developerId, 1)
    await until('the seventh session is stored', async () => (await new ClickHouseReadModel(session, 'serving').sessionMetrics(developerId, NOV)).sessions.sessions === 7)
    await off.s.stop()
    expect(await storeCheck(true)).toMatchObject({ outcome: 'fail', detail: expect.stringContaining('DEV_STATS_SESSION_DAY_SUMMARIES off') })
  })
})
