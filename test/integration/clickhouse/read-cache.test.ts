import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseDataVersions } from '../../../src/adapters/clickhouse/clickhouse-data-versions.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { ReadModel } from '../../../src/application/ports/read-model.port.js'
import type { Guid } from '../../../src/domain/guid.js'
import { systemClock } from '../../../src/adapters/clock/system-clock.js'
import type { Clock } from '../../../src/application/ports/clock.port.js'
import type { DataVersionReader } from '../../../src/application/ports/data-version.port.js'
import { CachedReadModel } from '../../../src/adapters/cache/cached-read-model.js'
import { at, dimPath, funnelFact, id, sessionFact, upperDimFact, viewFact } from '../../../src/testing/contracts/fact-rows.mother.js'
import { clickhouseUrl, databaseOfTestFile, forceMerge, resetDatabase, servingFactStore } from '../../support/clickhouse.js'

// The read cache on the real server: the versions it keys answers by change with every insert
// and merge of the tables a read depends on (and only those), so a cached answer is never stale.
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: databaseOfTestFile(import.meta.url) })
const versions = new ClickHouseDataVersions(session)
const store = servingFactStore(session)
const T = at('2026-11-30T10:00:00Z')
const NOV = { from: at('2026-11-01T00:00:00Z'), to: at('2026-12-01T00:00:00Z') }
const RANGE = { fromDate: '2026-11-01', toDate: '2026-11-30' }

/** A session, its view and a funnel event of the developer. */
const append = async (dev: Guid, duration: number) => {
  const s = id()
  await store.append([sessionFact({ sessionId: s, durationSeconds: duration }), viewFact(dimPath(dev), s, T), funnelFact('Views', dimPath(dev), id(), T)], T)
}

/** The server's read model, counting the queries that reach it and the per-developer version probes. */
const counted = (clock: Clock = systemClock) => {
  const inner = new ClickHouseReadModel(session)
  const calls = { n: 0, probes: 0 }
  const probed: DataVersionReader = {
    versions: () => versions.versions(),
    developerVersions: (ids) => (calls.probes++, versions.developerVersions(ids)),
  }
  const spy: ReadModel = {
    sessionMetrics: (...a) => (calls.n++, inner.sessionMetrics(...a)),
    dimensionNames: (...a) => (calls.n++, inner.dimensionNames(...a)),
    funnelCounts: (...a) => (calls.n++, inner.funnelCounts(...a)),
  }
  return { calls, cached: new CachedReadModel(spy, probed, clock, { maxEntries: 100, maxStaleMs: 0 }) }
}

beforeAll(() => resetDatabase(session))
afterAll(() => session.close())

describe('the read cache over the ClickHouse server', () => {
  it('versions (of the serving tables): unchanged without writes; an insert or a merge changes only the tables it touched', async () => {
    const s = id()
    await store.append([sessionFact({ sessionId: s }), viewFact(dimPath(), s, T)], T)
    const before = await versions.versions()
    expect([...before.keys()].sort()).toEqual(['sessions', 'views'])
    expect(await versions.versions()).toEqual(before)
    await store.append([viewFact(dimPath(), id(), T)], T)
    const afterInsert = await versions.versions()
    expect(afterInsert.get('views')).not.toBe(before.get('views'))
    expect(afterInsert.get('sessions')).toBe(before.get('sessions'))
    await forceMerge(session)
    const afterMerge = await versions.versions()
    expect(afterMerge.get('views')).not.toBe(afterInsert.get('views'))
  })

  it('a repeated read costs no query; a write behind it is in the very next read', async () => {
    const { calls, cached } = counted()
    const dev = id()
    const s = id()
    await store.append([sessionFact({ sessionId: s, durationSeconds: 40 }), viewFact(dimPath(dev), s, T)], T)
    expect((await cached.sessionMetrics(dev, NOV)).sessions.sessions).toBe(1)
    expect((await cached.sessionMetrics(dev, NOV)).sessions.sessions).toBe(1)
    expect(calls.n).toBe(1)
    const s2 = id()
    await store.append([sessionFact({ sessionId: s2, durationSeconds: 60 }), viewFact(dimPath(dev), s2, T)], T)
    expect((await cached.sessionMetrics(dev, NOV)).sessions).toMatchObject({ sessions: 2, totalDurationSeconds: 100 })
    expect(calls.n).toBe(2)
  })

  it('funnel counts and names: a new stage event and a renamed dimension are read at once', async () => {
    const { cached } = counted()
    const path = dimPath()
    await store.append([funnelFact('Views', path, id(), T)], T)
    expect((await cached.funnelCounts(path.developerId, RANGE, {})).Views).toBe(1)
    await store.append([funnelFact('Views', path, id(), T)], T)
    expect((await cached.funnelCounts(path.developerId, RANGE, {})).Views).toBe(2)
    await store.append([upperDimFact('developer', path.developerId, T, 'Old name')], T)
    expect((await cached.dimensionNames('developer', [path.developerId])).get(path.developerId)).toBe('Old name')
    await store.append([upperDimFact('developer', path.developerId, T + 1000, 'New name')], T)
    expect((await cached.dimensionNames('developer', [path.developerId])).get(path.developerId)).toBe('New name')
  })

  it("per developer: another developer's insert and a merge cost no query; the developer's own insert is read at once", async () => {
    const clock = { ms: 0, now: () => clock.ms }
    const { calls, cached } = counted(clock)
    const [mine, other] = [id(), id()]
    await append(mine, 10)
    expect((await cached.sessionMetrics(mine, NOV)).sessions.sessions).toBe(1)
    expect((await cached.funnelCounts(mine, RANGE, {})).Views).toBe(1)
    await append(other, 20)
    expect((await cached.sessionMetrics(mine, NOV)).sessions.sessions).toBe(1)
    expect((await cached.funnelCounts(mine, RANGE, {})).Views).toBe(1)
    expect(calls.n).toBe(2)
    await append(mine, 30)
    expect((await cached.sessionMetrics(mine, NOV)).sessions).toMatchObject({ sessions: 2, totalDurationSeconds: 40 })
    expect((await cached.funnelCounts(mine, RANGE, {})).Views).toBe(2)
    expect(calls.n).toBe(4)
    clock.ms += 30_000 // a question found changed is probed again 30 s on
    await forceMerge(session)
    expect((await cached.sessionMetrics(mine, NOV)).sessions).toMatchObject({ sessions: 2, totalDurationSeconds: 40 })
    expect((await cached.funnelCounts(mine, RANGE, {})).Views).toBe(2)
    expect(calls.n).toBe(4)
  })

  it('per developer: while its answers keep changing, a read goes to the store without a probe and holds every insert before it', async () => {
    const clock = { ms: 0, now: () => clock.ms }
    const { calls, cached } = counted(clock)
    const dev = id()
    await append(dev, 10)
    expect((await cached.sessionMetrics(dev, NOV)).sessions.sessions).toBe(1)
    await append(dev, 20)
    expect((await cached.sessionMetrics(dev, NOV)).sessions.sessions).toBe(2)
    expect(calls).toEqual({ n: 2, probes: 2 })
    await append(dev, 30)
    clock.ms = 29_999
    expect((await cached.sessionMetrics(dev, NOV)).sessions).toMatchObject({ sessions: 3, totalDurationSeconds: 60 })
    expect(calls).toEqual({ n: 3, probes: 2 })
  })

  it('per developer: a redelivered row is asked again (its count rose), and the answer holds after a merge collapses it', async () => {
    const { calls, cached } = counted()
    const dev = id()
    const s = id()
    const view = viewFact(dimPath(dev), s, T)
    await store.append([sessionFact({ sessionId: s, durationSeconds: 10 }), view], T)
    expect((await cached.sessionMetrics(dev, NOV)).views.views).toBe(1)
    await store.append([view], T + 1000)
    await forceMerge(session)
    expect((await cached.sessionMetrics(dev, NOV)).views.views).toBe(1)
    expect(calls.n).toBe(2)
  })
})
