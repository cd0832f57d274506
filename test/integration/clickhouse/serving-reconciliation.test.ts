import { DEFAULT_SERVING_LATENESS_DAYS } from '../../../src/domain/serving-window.js'
import { describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { migrate } from '../../../src/adapters/clickhouse/clickhouse-migrator.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingGaps } from '../../../src/adapters/clickhouse/clickhouse-serving-gaps.js'
import { ClickHouseServingIndex } from '../../../src/adapters/clickhouse/clickhouse-serving-index.js'
import { ident, sql, uuid } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'
import type { PairBreaches } from '../../../src/application/ports/serving-gaps.port.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import { ServingReconciliation } from '../../../src/application/serving/serving-reconciliation.js'
import type { Guid } from '../../../src/domain/guid.js'
import { SESSION_LINK_MAX_DAYS } from '../../../src/domain/serving-links.js'
import { dimPath, id, sessionFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { serverAndChdb } from '../../support/server-and-chdb.js'

// Issue 44.1 and 44.4: facts whose serving step missed (two lookups that did not see each other's
// insert, as on a replica behind) are repaired by the reconciliation, on the 18.16 server and on
// chdb: the serving answers then equal the raw facts', the developer's version is raised, a second
// pass finds nothing; and the views of its days outside the assumptions only both facts tell are
// counted.
const DATABASE = 'i44_serving_reconciliation'
const stores = serverAndChdb(DATABASE)
const db = ident(DATABASE)
const NOW = Math.floor(Date.now() / 1000) * 1000
const DAY = 86_400_000
const T = NOW - 3_600_000
const PERIOD = { from: NOW - 3 * DAY, to: NOW + DAY }

describe.each(stores)('the serving reconciliation on %s', (_, session) => {
  const serving = new ClickHouseReadModel(session)
  const oracle = new ClickHouseReadModel(session, 'facts')
  // a pass 20 minutes later by default: the facts are past RECONCILE_SETTLE_MS (a batch in its serving step is no gap)
  const reconciliation = (at = NOW + 20 * 60_000) => new ServingReconciliation(new ClickHouseServingGaps(session), new ClickHouseServingIndex(session), { now: () => at }, silentLogger, 60_000, DEFAULT_SERVING_LATENESS_DAYS)
  const writesOf = async (dev: Guid) =>
    Number((await session.select<{ n: string }>(sql`SELECT sum(Rows) AS n FROM ${db}.developer_day_writes WHERE KeyDeveloperId = ${uuid(dev)}`))[0]?.n ?? 0)

  it('writes the serving rows the lookups missed; the answers then equal the raw facts', async () => {
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
    await migrate(session)
    const dev = dimPath()
    const s = id()
    // stored, and linked by the views, but no serving step saw them (as two instances racing on replicas behind)
    await new ClickHouseFactStore(session).append([sessionFact({ sessionId: s, at: T }), viewFact(dev, s, T), viewFact(dev, s, T + 60_000)], NOW)
    expect((await serving.sessionMetrics(dev.developerId, PERIOD)).sessions.sessions).toBe(0)
    expect((await oracle.sessionMetrics(dev.developerId, PERIOD)).sessions.sessions).toBe(1)
    const versionBefore = await writesOf(dev.developerId)
    expect(await reconciliation(NOW).pass(), 'stored just now: maybe still in its serving step').toEqual({ views: 0, sessions: 0 })

    expect(await reconciliation().pass()).toEqual({ views: 2, sessions: 1 })
    expect(await serving.sessionMetrics(dev.developerId, PERIOD)).toEqual(await oracle.sessionMetrics(dev.developerId, PERIOD))
    expect((await serving.sessionMetrics(dev.developerId, PERIOD)).views.views).toBe(2)
    // the two view rows on their day, the session row on every day its views can lie on
    expect(await writesOf(dev.developerId)).toBe(versionBefore + 2 + 2 * SESSION_LINK_MAX_DAYS + 1)

    expect(await reconciliation().pass()).toEqual({ views: 0, sessions: 0 })
  })

  it('finds nothing to repair where the serving step ran', async () => {
    const dev = dimPath()
    const s = id()
    await new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session)).append([viewFact(dev, s, T)], NOW)
    await new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session)).append([sessionFact({ sessionId: s, at: T })], NOW)
    expect(await reconciliation().pass()).toEqual({ views: 0, sessions: 0 })
    expect((await serving.sessionMetrics(dev.developerId, PERIOD)).sessions.sessions).toBe(1)
  })

  it('counts the views of its days outside the assumptions only both facts tell', async () => {
    const dev = dimPath()
    const store = new ServingFactStore(new ClickHouseFactStore(session), new ClickHouseServingIndex(session))
    // a view two days after its session's span: the session is stored but not linked on the view's day
    const s = id()
    await store.append([sessionFact({ sessionId: s, at: T - 2 * DAY })], NOW)
    await store.append([viewFact(dev, s, T)], NOW)
    // a view inside the span of its session's earlier fact, outside the latest fact's (shorter: it ends three days before the view)
    const shortened = id()
    const earlier = sessionFact({ sessionId: shortened, at: T - 3 * DAY })
    if (earlier.table === 'session_facts') await store.append([{ ...earlier, row: { ...earlier.row, lastActivityAt: T + 3_600_000 } }], NOW - 2000)
    await store.append([sessionFact({ sessionId: shortened, at: T - 3 * DAY }), viewFact(dev, shortened, T)], NOW - 1000)
    // a view whose closed row is three days before its open row
    const viewId = id()
    await store.append([viewFact(dev, id(), T, false, viewId), viewFact(dev, id(), T - 3 * DAY, true, viewId)], NOW)
    const found: PairBreaches[] = []
    const observer = { repaired: () => undefined, breaches: (b: PairBreaches) => void found.push(b) }
    await new ServingReconciliation(new ClickHouseServingGaps(session), new ClickHouseServingIndex(session), { now: () => NOW + 20 * 60_000 }, silentLogger, 60_000, DEFAULT_SERVING_LATENESS_DAYS, observer).pass()
    expect(found).toEqual([{ 'view-outside-session': 2, 'view-rows-apart': 1 }])
  })
})
