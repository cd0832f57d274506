import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDayRecords } from '../../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import { dayOf } from '../../../src/domain/serving-links.js'
import { dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { resetDatabase } from '../../support/clickhouse.js'
import { clusterScript, clusterSession, replicaSession, type Replica } from '../../support/clickhouse-cluster.js'
import { binaryRecord, messageIdOf, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// A replica of the local cluster stops while the real ConsumerEngine ingests through replica 1's
// Distributed tables. Replica 2 down: ingest goes on, and when it returns it fetches every part
// it missed. Replica 1 down (the one the store talks to): the batch is retried until it is back.
// Either way nothing is lost, and both replicas end with every event exactly once. Reads, which
// ask every replica, leave a stopped one out and answer; the day records wait for both (a sum of
// counts missing a replica's could equal an older stamp).
const DATABASE = 'i11_cluster_outage'
const sessions = sessionEndedHandler()
const session = clusterSession(DATABASE, 1)
const local: Record<Replica, ClickHouseSession> = { 1: replicaSession(DATABASE, 1), 2: replicaSession(DATABASE, 2) }

const factIdsOn = async (n: Replica): Promise<string[]> =>
  (await local[n].select<{ FactId: string }>(sql`SELECT FactId FROM ${ident(DATABASE)}.session_facts_local FINAL`)).map((r) => r.FactId)
const DAY_MS = 86_400_000
const batch = (n: number) => Array.from({ length: n }, () => binaryRecord(sessions.topic, sessionEndedPayload()))

describe('a replica stopped mid-ingest', () => {
  let h: Harness
  const down = new Set<Replica>()
  const stop = (n: Replica) => (clusterScript('stop-replica', String(n)), down.add(n))
  const start = (n: Replica) => (clusterScript('start-replica', String(n)), down.delete(n))

  beforeAll(async () => {
    await resetDatabase(session)
    h = new Harness([sessions], { ...FAST_CONFIG, sinkBackoff: { initialMs: 100, maxMs: 1000 } })
    h.sink = new ClickHouseFactStore(session)
    await h.start()
  })

  afterAll(async () => {
    for (const n of down) start(n)
    await h?.stopAll()
    await Promise.all([session.close(), local[1].close(), local[2].close()])
  })

  it('loses nothing: ingest continues past a stopped second replica, retries past a stopped first one, replicas converge', async () => {
    const published = batch(30)
    h.publish(...published)
    await waitUntil(() => h.caughtUp(sessions), 30_000, 'first batch committed')

    stop(2)
    const whileTwoDown = batch(30)
    h.publish(...whileTwoDown)
    published.push(...whileTwoDown)
    await waitUntil(() => h.caughtUp(sessions), 30_000, 'committed with replica 2 down')
    expect(h.engine(sessions.name).stats.sinkRetries).toBe(0)
    start(2)

    stop(1)
    const whileOneDown = batch(30)
    h.publish(...whileOneDown)
    published.push(...whileOneDown)
    await waitUntil(() => h.engine(sessions.name).stats.sinkRetries >= 2, 30_000, 'retries while replica 1 is down')
    expect(h.caughtUp(sessions)).toBe(false)
    start(1)
    await waitUntil(() => h.caughtUp(sessions), 60_000, 'caught up after replica 1 returned')

    const expected = new Set(published.map(messageIdOf))
    for (const n of [1, 2] as const) {
      const deadline = Date.now() + 60_000
      let ids = await factIdsOn(n)
      while (ids.length < expected.size && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 500))
        ids = await factIdsOn(n)
      }
      expect(ids.length, `replica ${n}`).toBe(expected.size)
      expect(new Set(ids), `replica ${n}`).toEqual(expected)
    }
  })

  it('reads through the replica that is up answer what it holds; day records are not used until every replica answers', async () => {
    const serving = new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session))
    const records = new ClickHouseDayRecords(session)
    const read = new DayRecordsReadModel(new ClickHouseReadModel(session), records)
    const now = Date.now()
    const days = { from: Math.floor(now / DAY_MS) * DAY_MS - DAY_MS, to: Math.floor(now / DAY_MS) * DAY_MS + DAY_MS }
    const path = dimPath()
    const s = id()
    stop(2)
    await serving.append([sessionFact({ sessionId: s, at: now - 60_000 }), viewFact(path, s, now - 60_000)], now)
    expect((await records.dayWrites(path.developerId, dayOf(now), dayOf(now))).counted, 'replica 2 left out').toBe(false)
    expect((await read.sessionMetrics(path.developerId, days)).sessions.sessions).toBe(1)
    start(2)
    expect((await records.dayWrites(path.developerId, dayOf(now), dayOf(now))).counted, 'both answer').toBe(true)
    expect((await read.sessionMetrics(path.developerId, days)).sessions.sessions).toBe(1)
  })
})
