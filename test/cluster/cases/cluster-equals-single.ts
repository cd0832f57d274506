import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDimensionReader } from '../../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { FUNNEL_STAGES } from '../../../src/domain/funnel.js'
import type { Guid } from '../../../src/domain/guid.js'
import { at, dimFact, dimPath, funnelFact, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, forceMerge, resetDatabase, servingFactStore } from '../../support/clickhouse.js'
import { CLUSTER, clusterSession, syncReplica } from '../../support/clickhouse-cluster.js'
import { ClickHouseDayRecords } from '../../../src/adapters/clickhouse/clickhouse-day-records.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import { backfillServing } from '../../../src/adapters/clickhouse/serving-backfill.js'

// The same appends into the single server (its own database on the shared 18123 server) and
// into the cluster's Distributed tables: every read answers the same, before and after merges,
// with every replica holding every row (the cluster's reads ask each replica: none counts twice),
// from the serving rows and from the day records.
const single = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'i11_single_equals_cluster' })
const CLUSTER_DATABASE = 'i11_cluster_equals_single'
const cluster = clusterSession(CLUSTER_DATABASE)
const T0 = at('2026-11-10T08:00:00Z')
const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const RANGE = { fromDate: '2026-11-01', toDate: '2026-11-30' }

/** A few developers with several property objects each; sessions, open and closed views, funnel stages, re-deliveries. */
const dataset = (): { developers: Guid[]; objects: Guid[]; appends: FactRow[][] } => {
  const developers = [id(), id(), id()]
  const paths = developers.flatMap((d) => [dimPath(d), dimPath(d), dimPath(d)])
  const appends: FactRow[][] = []
  for (let round = 0; round < 4; round++) {
    const rows: FactRow[] = []
    paths.forEach((p, i) => {
      const t = T0 + (round * 9 + i) * 3_600_000
      const s = id()
      const viewId = id()
      rows.push(sessionFact({ sessionId: s, userId: i % 3 === 0 ? null : id(), durationSeconds: 30 + i * 7 + round, at: t }))
      rows.push(viewFact(p, s, t, false, viewId), viewFact(p, s, t, i % 2 === 0, viewId))
      rows.push(funnelFact(FUNNEL_STAGES[(i + round) % FUNNEL_STAGES.length] ?? 'Views', p, id(), t))
      rows.push(dimFact(p, t, `obj-${i}-${round}`))
    })
    appends.push(rows, rows.slice(0, 5)) // a re-delivered head of the batch
  }
  return { developers, objects: paths.map((p) => p.propertyObjectId), appends }
}

const answers = async (session: ClickHouseSession, developers: Guid[], objects: Guid[]) => {
  if (session === cluster) for (const n of [1, 2] as const) await syncReplica(CLUSTER_DATABASE, n)
  const read = new ClickHouseReadModel(session)
  const records = new DayRecordsReadModel(read, new ClickHouseDayRecords(session))
  const perDeveloper = await Promise.all(
    developers.map(async (d) => ({
      ...(await read.sessionMetrics(d, NOV)),
      records: await records.sessionMetrics(d, NOV),
      funnel: await read.funnelCounts(d, RANGE, {}),
      funnels: Object.fromEntries(await read.funnelCountsOfDevelopers(developers, RANGE)),
    })),
  )
  const paths = await new ClickHouseDimensionReader(session).latestPaths(objects)
  return { perDeveloper, paths: Object.fromEntries([...paths].sort(([a], [b]) => a.localeCompare(b))) }
}

describe('reads through the Distributed tables equal the single server', () => {
  const data = dataset()

  beforeAll(async () => {
    await Promise.all([resetDatabase(single), resetDatabase(cluster)])
    for (const [i, rows] of data.appends.entries()) {
      await servingFactStore(single).append(rows, T0 + i * 1000)
      await servingFactStore(cluster).append(rows, T0 + i * 1000)
    }
  })

  afterAll(() => Promise.all([single.close(), cluster.close()]))

  it('the same session, view, funnel and dimension answers, before and after forced merges', async () => {
    const expected = await answers(single, data.developers, data.objects)
    expect(expected.perDeveloper.every((a) => a.sessions.sessions > 0 && a.views.views > 0)).toBe(true)
    expect(await answers(cluster, data.developers, data.objects)).toEqual(expected)
    await Promise.all([forceMerge(single), forceMerge(cluster)])
    expect(await answers(cluster, data.developers, data.objects)).toEqual(await answers(single, data.developers, data.objects))
  })

  it('the serving tables rebuilt by the backfill through the Distributed tables answer the same', async () => {
    const expected = await answers(single, data.developers, data.objects)
    for (const table of ['developer_view_facts', 'developer_session_facts', 'view_links', 'session_view_links', 'session_links', 'funnel_developer_daily', 'serving_backfill']) {
      // names from this list only; 18.16 truncates a replicated table through each replica's own
      await cluster.ddl(`TRUNCATE TABLE i11_cluster_equals_single.${table}_local ON CLUSTER ${CLUSTER}`)
    }
    expect((await answers(cluster, data.developers, data.objects)).perDeveloper.every((a) => a.sessions.sessions === 0 && a.funnel.Views === 0)).toBe(true)
    await backfillServing(cluster, () => undefined)
    expect(await answers(cluster, data.developers, data.objects)).toEqual(expected)
  })
})
