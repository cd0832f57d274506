import { DEFAULT_SERVING_LATENESS_DAYS } from '../../../src/domain/serving-window.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDayRecords } from '../../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseLinkPartitions } from '../../../src/adapters/clickhouse/clickhouse-link-partitions.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingGaps } from '../../../src/adapters/clickhouse/clickhouse-serving-gaps.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { name, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import { ServingReconciliation } from '../../../src/application/serving/serving-reconciliation.js'
import { LinkRetention } from '../../../src/application/serving/link-retention.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import type { Guid } from '../../../src/domain/guid.js'
import { dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { resetDatabase } from '../../support/clickhouse.js'
import { clusterSession, replicaSession, syncReplica, type Replica } from '../../support/clickhouse-cluster.js'

// Spec §8 on a replicated cluster (issues 44.1, 63): two instances write through different replicas
// of the local cluster while neither replica fetches the other's parts (SYSTEM STOP FETCHES): a
// session fact through one, its view through the other, both orders and at once. 18.16 writes a
// Distributed insert on the replica the request reached and a Distributed read asks one replica,
// so lookups and reads through the Distributed tables miss the other side. The lookups and the
// reads ask every replica (ReadTables): right after both batches returned, with no reconciliation,
// every developer's answer has its session through either replica, from the serving rows and from
// the day records; once the replicas fetch, the answers are the same and the reconciliation has
// nothing to write.
const DATABASE = 'i44_serving_race'
const through: Record<Replica, ClickHouseSession> = { 1: clusterSession(DATABASE, 1), 2: clusterSession(DATABASE, 2) }
const local: Record<Replica, ClickHouseSession> = { 1: replicaSession(DATABASE, 1), 2: replicaSession(DATABASE, 2) }
const NOW = Math.floor(Date.now() / 1000) * 1000
const T = NOW - 3_600_000
const PERIOD = { from: NOW - 3 * 86_400_000, to: NOW + 86_400_000 }
const DAY_MS = 86_400_000
const WHOLE_DAYS = { from: Math.floor(NOW / DAY_MS) * DAY_MS - 2 * DAY_MS, to: Math.floor(NOW / DAY_MS) * DAY_MS + DAY_MS }
const instance = (n: Replica) => new ServingFactStore(new ClickHouseFactStore(through[n]), new ClickHouseServingIndex(through[n]))
const fetches = async (on: boolean) => {
  for (const n of [1, 2] as const) await local[n].command(on ? sql`SYSTEM START FETCHES` : sql`SYSTEM STOP FETCHES`)
}
const readers = (n: Replica) => ({
  'serving rows': new ClickHouseReadModel(through[n]),
  'day records': new DayRecordsReadModel(new ClickHouseReadModel(through[n]), new ClickHouseDayRecords(through[n])),
})
const answers = async (developerId: Guid) => {
  const seen: Record<string, number> = {}
  for (const r of [1, 2] as const) {
    for (const [path, model] of Object.entries(readers(r))) {
      const period = path === 'day records' ? WHOLE_DAYS : PERIOD
      const { sessions, views } = await model.sessionMetrics(developerId, period)
      seen[`replica ${r}, ${path}`] = sessions.sessions * 10 + views.views
    }
  }
  return seen
}
const ONE_SESSION_ONE_VIEW = { 'replica 1, serving rows': 11, 'replica 1, day records': 11, 'replica 2, serving rows': 11, 'replica 2, day records': 11 }

describe('the serving step on a replicated cluster', () => {
  beforeAll(async () => {
    await resetDatabase(through[1])
  })
  afterAll(async () => {
    await fetches(true).catch(() => undefined)
    await Promise.all([...Object.values(through), ...Object.values(local)].map((s) => s.close()))
  })

  it('sessions and views written through different replicas that do not fetch: in every answer through either replica once both returned', async () => {
    await fetches(false)
    const developers: Guid[] = []
    const pair = (): [Guid, FactRow[], FactRow[]] => {
      const dev = dimPath()
      const s = id()
      developers.push(dev.developerId)
      return [dev.developerId, [sessionFact({ sessionId: s, at: T })], [viewFact(dev, s, T)]]
    }
    for (const [first, second] of [[1, 2], [2, 1]] as const) {
      const [sessionFirst, session, view] = pair()
      await instance(first).append(session, NOW)
      await instance(second).append(view, NOW)
      expect(await answers(sessionFirst), `session through ${first}, then its view through ${second}`).toEqual(ONE_SESSION_ONE_VIEW)
      const [viewFirst, session2, view2] = pair()
      await instance(first).append(view2, NOW)
      await instance(second).append(session2, NOW)
      expect(await answers(viewFirst), `view through ${first}, then its session through ${second}`).toEqual(ONE_SESSION_ONE_VIEW)
    }
    for (let i = 0; i < 3; i++) {
      const [atOnce, session, view] = pair()
      await Promise.all([instance(1).append(session, NOW), instance(2).append(view, NOW)])
      expect(await answers(atOnce), 'session and view at once').toEqual(ONE_SESSION_ONE_VIEW)
    }
    await fetches(true)
    for (const n of [1, 2] as const) await syncReplica(DATABASE, n)
    for (const developerId of developers) expect(await answers(developerId), `developer ${developerId} once the replicas fetched`).toEqual(ONE_SESSION_ONE_VIEW)
    const repaired = await new ServingReconciliation(new ClickHouseServingGaps(through[1]), new ClickHouseServingIndex(through[1]), { now: () => NOW + 20 * 60_000 }, silentLogger, 60_000, DEFAULT_SERVING_LATENESS_DAYS).pass()
    expect(repaired, 'the lookups missed nothing').toEqual({ views: 0, sessions: 0 })
  })

  it('link retention drops old months on every replica (ON CLUSTER)', async () => {
    const partitions = new ClickHouseLinkPartitions(through[1])
    const months = await partitions.list()
    expect(months.length).toBeGreaterThan(0)
    // a year after the facts: every link month is older than the window
    const dropped = await new LinkRetention(partitions, 30, { now: () => NOW + 365 * 86_400_000 }, silentLogger).pass()
    expect(dropped).toBe(months.length)
    const linkParts = async (n: Replica) =>
      Number((await local[n].select<{ n: string }>(sql`SELECT count() AS n FROM system.parts WHERE database = ${name(DATABASE)} AND active AND table IN ('view_links_local', 'session_view_links_local', 'session_links_local')`))[0]?.n)
    for (const n of [1, 2] as const) {
      // the other replica drops them from the replication log, moments later
      for (const deadline = Date.now() + 30_000; (await linkParts(n)) > 0 && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 500))
      expect(await linkParts(n), `replica ${n}`).toBe(0)
    }
  })
})
