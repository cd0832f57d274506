import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, name, sql, uuid, type SqlFragment } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { Guid } from '../../../src/domain/guid.js'
import { binaryRecord, funnelEventPayload, guid, path, propertyObjectUpsertedPayload, sessionEndedPayload, viewActionPayload } from '../../support/events.js'
import { KAFKA_ADAPTERS, kafkaBroker } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { removeRunResources } from '../../support/run-resources.js'
import { secretBytes, signToken } from '../../support/tokens.js'
import { OwnToxiproxy } from '../../support/toxiproxy.js'
import { clickhousePort, deadLettered, metricSum, proxiedDeployment, startService, uncommitted } from './proxied-service.js'

// Issue 36.2, the ambiguous insert: ClickHouse applies an insert but its reply never reaches the
// service (a Toxiproxy `timeout` on the answer direction: data dropped, nothing closed). The
// service's request times out and it inserts the batch again, and again, until the reply comes
// back. Merges are stopped on the run's tables, so every retried copy stays a physical row: the
// reads (facts by FactId, the funnel's uniq, the serving tables, the read API) must still count
// each record once, and nothing may be dead-lettered for it.
const topics: string[] = []
const databases: string[] = []
let toxiproxy: OwnToxiproxy
beforeAll(async () => {
  toxiproxy = await OwnToxiproxy.start()
})
afterAll(async () => {
  toxiproxy?.stop()
  await removeRunResources(topics, databases)
})

const DAY = '2026-11-30'
const REQUEST_TIMEOUT_MS = 2000
const FLUSH_INTERVAL_MS = 8000
/** Time for a taken record's dimension lookup to come back before the replies go silent. */
const LOOKUP_GRACE_MS = 1000

describe.each(KAFKA_ADAPTERS)('an insert applied whose reply is lost (%s)', (adapter) => {
  it('is retried until a reply comes; every read path counts the record once, nothing dead-lettered', async () => {
    const proxy = await toxiproxy.proxy(`clickhouse-${adapter}`, clickhousePort())
    const d = await proxiedDeployment(adapter, 'ambiguous', proxy, {
      DEV_STATS_CLICKHOUSE_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
      DEV_STATS_SINK_BACKOFF_INITIAL_MS: '300',
      DEV_STATS_SINK_BACKOFF_MAX_MS: '600',
      DEV_STATS_FLUSH_INTERVAL_MS: String(FLUSH_INTERVAL_MS),
      // the slow batches wait the whole interval: the replies go silent before they are inserted
      DEV_STATS_FLUSH_SLOW_BATCH_MS: '0',
      DEV_STATS_LOG_LEVEL: 'debug',
      // the answers are polled below until they settle; the per-developer limit would answer 429
      DEV_STATS_READ_API_RATE_LIMIT: '0',
    })
    topics.push(...d.topics)
    databases.push(d.database)
    const db = ident(d.database)
    const tables = await d.direct.select<{ name: string }>(sql`SELECT name FROM system.tables WHERE database = ${name(d.database)} AND engine LIKE '%MergeTree'`)
    for (const t of tables) await d.direct.command(sql`SYSTEM STOP MERGES ${db}.${ident(t.name)}`)

    const service = await startService(d.env)
    const broker = kafkaBroker(adapter)
    try {
      const developer = guid()
      const p = path(developer)
      const [sessionId, viewId] = [guid(), guid()]
      await broker.producer().publish([binaryRecord(d.topicsOf('PROPERTY_OBJECT_UPSERTED').source, propertyObjectUpsertedPayload(p))])
      await eventuallyAsync(async () => (await count(d.direct, sql`${db}.dim_property_object WHERE Id = ${id(p.PropertyObjectId)}`)) > 0, 60_000, 'the dimension stored')

      await broker.producer().publish([
        binaryRecord(d.topicsOf('ACTION_TRACKED').source, viewActionPayload(p, { SessionId: sessionId, PropertyObjectViewId: viewId })),
        binaryRecord(d.topicsOf('SESSION_ENDED').source, sessionEndedPayload({ SessionId: sessionId, DurationSeconds: 1234 })),
        binaryRecord(d.topicsOf('FAVORITES').source, funnelEventPayload('FavoriteId', p.PropertyObjectId)),
      ])
      // The view and the favorite need a dimension lookup, itself a request whose reply the toxic
      // would lose: the replies go silent once the records are taken (lookups done at once) and
      // before their batches are inserted (FLUSH_INTERVAL_MS after they opened).
      const consumed = (consumer: string) => service.output.split('\n').some((l) => l.includes(`"consumer":"${consumer}"`) && l.includes('"msg":"consumed"'))
      await eventuallyAsync(() => ['action-tracked', 'session-ended', 'funnel-favorites'].every(consumed), 30_000, 'the three records taken')
      await new Promise((r) => setTimeout(r, LOOKUP_GRACE_MS))
      await proxy.add({ name: 'reply-lost', type: 'timeout', stream: 'downstream', attributes: { timeout: 0 } })
      const sessionRows = () => count(d.direct, sql`${db}.session_facts WHERE SessionId = ${id(sessionId)}`)
      const viewRows = () => count(d.direct, sql`${db}.property_object_view_facts WHERE PropertyObjectViewId = ${id(viewId)}`)
      const funnelRows = () => count(d.direct, sql`${db}.funnel_daily WHERE DeveloperId = ${id(developer)}`)
      // applied at least twice while no reply came: the first insert and a retry of it
      let applied: number[] = []
      await eventuallyAsync(async () => {
        applied = [await sessionRows(), await viewRows(), await funnelRows()]
        return applied.every((n) => n >= 2)
      }, 60_000, 'inserts applied twice behind the lost replies (session, view, favorite)')
        .catch((e: Error) => { throw new Error(`${e.message}: rows ${applied.join(', ')}\n${service.output.split('\n').filter((l) => l.includes('"level":50')).join('\n')}`) })
      expect(service.output).not.toContain('failed: dimension lookup')
      const retriesWhileLost = await metricSum(d.base, 'dev_stats_sink_retries_total')
      expect(await uncommitted(d)).toBe(3) // nothing committed while no insert was acknowledged
      await proxy.remove('reply-lost')

      const token = await signToken({ developer_id: developer }, secretBytes())
      const api = async <T>(route: string): Promise<{ status: number; body: T }> => {
        const r = await fetch(`${d.base}/v1/${route}?from=${DAY}&to=${DAY}`, { headers: { authorization: `Bearer ${token}` } })
        return { status: r.status, body: (await r.json()) as T }
      }
      const stage = (f: { stages?: { stage: string; count: number }[] }, which: string) => f.stages?.find((s) => s.stage === which)?.count
      let last = ''
      await eventuallyAsync(async () => {
        const [m, f] = [await api<{ sessions?: number }>('session-metrics'), await api<{ stages?: { stage: string; count: number }[] }>('conversion-funnel')]
        last = JSON.stringify([m, f])
        return m.body.sessions === 1 && stage(f.body, 'Views') === 1 && stage(f.body, 'Favorites') === 1 && (await uncommitted(d)) === 0
      }, 60_000, 'answers after the replies came back').catch((e: Error) => { throw new Error(`${e.message} (last ${last})`) })

      const metrics = await api<{ sessions: number; totalDurationSeconds: number; views: { views: number } }>('session-metrics')
      expect(metrics).toMatchObject({ status: 200, body: { sessions: 1, totalDurationSeconds: 1234, views: { views: 1 } } })
      const funnel = await api<{ stages: { stage: string; count: number }[] }>('conversion-funnel')
      expect([stage(funnel.body, 'Views'), stage(funnel.body, 'Favorites')]).toEqual([1, 1])

      const facts = await d.direct.select<{ rows: string; ids: string }>(sql`
        SELECT count() AS rows, uniqExact(FactId) AS ids FROM ${db}.session_facts WHERE SessionId = ${id(sessionId)}
        UNION ALL SELECT count(), uniqExact(FactId) FROM ${db}.property_object_view_facts WHERE PropertyObjectViewId = ${id(viewId)}`)
      expect(facts.map((f) => Number(f.ids))).toEqual([1, 1])
      expect(facts.every((f) => Number(f.rows) >= 2)).toBe(true)
      const servingRows = await count(d.direct, sql`${db}.developer_session_facts WHERE KeyDeveloperId = ${id(developer)}`)
      const period = { from: Date.parse(`${DAY}T00:00:00Z`), to: Date.parse(`${DAY}T00:00:00Z`) + 86_400_000 }
      for (const source of ['facts', 'serving'] as const) {
        const model = new ClickHouseReadModel(d.direct, source)
        expect(await model.sessionMetrics(developer as Guid, period), source).toMatchObject({ sessions: { sessions: 1, totalDurationSeconds: 1234 }, views: { views: 1 } })
        expect(await model.funnelCounts(developer as Guid, { fromDate: DAY, toDate: DAY }, {}), source).toMatchObject({ Views: 1, Favorites: 1 })
      }

      expect(await deadLettered(d)).toBe(0)
      expect(await metricSum(d.base, 'dev_stats_dlq_total')).toBe(0)
      console.info(`[ambiguous insert ${adapter}] retries while the replies were lost ${retriesWhileLost}, in all ${await metricSum(d.base, 'dev_stats_sink_retries_total')}; ` +
        `physical rows: session_facts ${facts[0]?.rows}, view facts ${facts[1]?.rows}, funnel_daily ${await funnelRows()}, developer_session_facts ${servingRows}; logical 1 each`)
      expect(retriesWhileLost).toBeGreaterThanOrEqual(3)
    } finally {
      await proxy.clear()
      await broker.close()
      await service.stop()
      await d.direct.close()
    }
  })
})

const id = (value: string) => uuid(value as Guid)

const count = async (session: ClickHouseSession, from: SqlFragment): Promise<number> =>
  Number((await session.select<{ n: string }>(sql`SELECT count() AS n FROM ${from}`))[0]?.n ?? 0)
