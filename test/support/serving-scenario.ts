import fc from 'fast-check'
import { expect } from 'vitest'
import { actionTrackedHandler } from '../../src/application/handlers/action-tracked.handler.js'
import { propertyObjectUpsertedHandler } from '../../src/application/handlers/property-object-upserted.handler.js'
import { sessionEndedHandler } from '../../src/application/handlers/session-ended.handler.js'
import { viewEndedHandler } from '../../src/application/handlers/view-ended.handler.js'
import type { OutboundRecord } from '../../src/application/ports/broker.port.js'
import type { Period, ReadModel } from '../../src/application/ports/read-model.port.js'
import type { ServingIndex } from '../../src/application/ports/serving-index.port.js'
import { StoreError } from '../../src/application/ports/store-error.js'
import type { Guid } from '../../src/domain/guid.js'
import { ClickHouseDimensionReader } from '../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseFactStore } from '../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingIndex } from '../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { backfillServing } from '../../src/adapters/clickhouse/serving-backfill.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { ServingFactStore } from '../../src/application/serving/serving-fact-store.js'
import { resetDatabase } from './clickhouse.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload, type Path } from './events.js'
import { FAST_CONFIG, Harness, waitUntil } from './harness.js'

// Issue 33's proof: sessions and views on their own topics, in any order, redelivered, a property
// object moving to another developer between a view's open and close, and a batch whose serving
// step fails after its facts were stored (the engine retries it: the facts again, then the
// lookups, as after a crash and a redelivery). Through the engines; then, for every developer
// and period, the serving read model must answer what the raw-fact query (the oracle) answers.

export const SERVING_HANDLERS = [sessionEndedHandler(), actionTrackedHandler(), viewEndedHandler(), propertyObjectUpsertedHandler()]
const [SESSIONS, ACTIONS, VIEWS_ENDED, DIMENSIONS] = SERVING_HANDLERS as [ReturnType<typeof sessionEndedHandler>, ReturnType<typeof actionTrackedHandler>, ReturnType<typeof viewEndedHandler>, ReturnType<typeof propertyObjectUpsertedHandler>]

const DAY0 = Date.parse('2026-11-28T00:00:00Z')
const MINUTE = 60_000
const DAY = 1440 * MINUTE
/** After every event time of a scenario, so that none is "in the future". */
export const SCENARIO_CLOCK = Date.parse('2026-12-05T00:00:00Z')

interface SessionSpec {
  readonly startMinute: number
  readonly spanMinutes: number
  readonly guest: boolean
  readonly facts: readonly { readonly durationSeconds: number; readonly extraMinutes: number }[]
}

interface ViewSpec {
  readonly session: number
  readonly object: number
  readonly atPercent: number
  readonly kind: 'open' | 'closed' | 'both'
  /** The open fact carries no SessionId (action-tracked may omit it). */
  readonly openWithoutSession: boolean
  /** The closed fact's ViewedAt differs from the open one's by this much (producers' clocks). */
  readonly closedShiftSeconds: number
  readonly durationSeconds: number
}

export interface Scenario {
  /** Each property object's first developer (of three). */
  readonly objects: readonly number[]
  readonly sessions: readonly SessionSpec[]
  readonly views: readonly ViewSpec[]
  /** Property objects moving to another developer, anywhere in the stream. */
  readonly moves: readonly { readonly object: number; readonly developer: number }[]
  /** The order of the events (a key each) and how many go out together. */
  readonly order: readonly number[]
  readonly stepSizes: readonly number[]
  /** Events delivered again later: [which, into which step]. */
  readonly redeliveries: readonly (readonly [number, number])[]
  /** Steps whose next serving lookup fails. */
  readonly failingSteps: readonly number[]
}

export const scenarioArbitrary: fc.Arbitrary<Scenario> = fc.record({
  objects: fc.array(fc.nat(2), { minLength: 2, maxLength: 3 }),
  sessions: fc.array(
    fc.record({
      // starts over three days, some running past midnight
      startMinute: fc.nat(3 * 1440 - 1),
      spanMinutes: fc.integer({ min: 1, max: 300 }),
      guest: fc.boolean(),
      facts: fc.array(fc.record({ durationSeconds: fc.nat(5000), extraMinutes: fc.nat(30) }), { minLength: 1, maxLength: 2 }),
    }),
    { minLength: 1, maxLength: 4 },
  ),
  views: fc.array(
    fc.record({
      session: fc.nat(),
      object: fc.nat(),
      atPercent: fc.nat(100),
      kind: fc.constantFrom('open', 'closed', 'both'),
      openWithoutSession: fc.boolean(),
      closedShiftSeconds: fc.nat(120),
      durationSeconds: fc.nat(900),
    }),
    { maxLength: 8 },
  ),
  moves: fc.array(fc.record({ object: fc.nat(), developer: fc.nat(2) }), { maxLength: 3 }),
  order: fc.array(fc.nat(), { minLength: 30, maxLength: 30 }),
  stepSizes: fc.array(fc.integer({ min: 1, max: 4 }), { minLength: 1, maxLength: 5 }),
  redeliveries: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 4 }),
  failingSteps: fc.array(fc.nat(12), { maxLength: 3 }),
})

const iso = (t: number) => new Date(t).toISOString()

/** The scenario as Kafka records, grouped in the steps they are delivered in; the developers' ids. */
export const scenarioRecords = (s: Scenario): { developers: Guid[]; steps: OutboundRecord[][] } => {
  const developers = [guid(), guid(), guid()] as Guid[]
  const paths: Path[] = s.objects.map((d) => path(developers[d]))
  let version = 0
  const upsert = (p: Path, developer: Guid) =>
    binaryRecord(DIMENSIONS.topic, propertyObjectUpsertedPayload({ ...p, DeveloperId: developer }, { UpsertedAt: iso(DAY0 - DAY + version++ * 1000) }))
  const initial = paths.map((p) => upsert(p, p.DeveloperId as Guid))
  const sessions = s.sessions.map((spec) => ({ ...spec, id: guid(), anonymousId: guid(), userId: spec.guest ? null : guid(), start: DAY0 + spec.startMinute * MINUTE }))
  const events: OutboundRecord[] = []
  for (const x of sessions) {
    for (const f of x.facts) {
      events.push(binaryRecord(SESSIONS.topic, {
        SessionId: x.id, AnonymousId: x.anonymousId, UserId: x.userId, CreatedAt: iso(x.start),
        LastActivityAt: iso(x.start + (x.spanMinutes + f.extraMinutes) * MINUTE), DurationSeconds: f.durationSeconds,
      }))
    }
  }
  for (const v of s.views) {
    const x = sessions[v.session % sessions.length]
    const p = paths[v.object % paths.length]
    if (!x || !p) continue
    const viewId = guid()
    const viewedAt = x.start + Math.floor((x.spanMinutes * v.atPercent) / 100) * MINUTE
    if (v.kind !== 'closed') {
      events.push(binaryRecord(ACTIONS.topic, {
        ActionType: 'ViewPropertyObject', PropertyObjectViewId: viewId, PropertyObjectId: p.PropertyObjectId,
        ...(v.openWithoutSession ? {} : { SessionId: x.id }), AnonymousId: x.anonymousId, ViewedAt: iso(viewedAt),
      }))
    }
    if (v.kind !== 'open') {
      const closedAt = viewedAt + v.closedShiftSeconds * 1000
      events.push(binaryRecord(VIEWS_ENDED.topic, {
        PropertyObjectViewId: viewId, PropertyObjectId: p.PropertyObjectId, SessionId: x.id, AnonymousId: x.anonymousId, UserId: x.userId,
        ViewedAt: iso(closedAt), LastActivityAt: iso(closedAt + v.durationSeconds * 1000), DurationSeconds: v.durationSeconds,
      }))
    }
  }
  for (const m of s.moves) {
    const p = paths[m.object % paths.length]
    if (p) events.push(upsert(p, developers[m.developer] as Guid))
  }
  const ordered = events.map((e, i) => ({ e, key: s.order[i % s.order.length] ?? 0, i })).sort((a, b) => a.key - b.key || a.i - b.i).map((x) => x.e)
  const steps: OutboundRecord[][] = [initial]
  for (let i = 0, k = 0; i < ordered.length; k++) {
    const size = s.stepSizes[k % s.stepSizes.length] ?? 1
    steps.push(ordered.slice(i, i + size))
    i += size
  }
  for (const [which, into] of s.redeliveries) {
    const again = ordered[which % Math.max(1, ordered.length)]
    if (again) steps[1 + (into % (steps.length - 1 || 1))]?.push(again)
  }
  return { developers, steps }
}

/** A ServingIndex whose next `failures` lookups fail (a plain Error or a retriable StoreError, alternately). */
export const failing = (inner: ServingIndex): ServingIndex & { failures: number } => {
  const wrapped = {
    failures: 0,
    fail(): void {
      if (wrapped.failures <= 0) return
      wrapped.failures--
      if (wrapped.failures % 2 === 0) throw new Error('the process died after the facts were stored')
      throw new StoreError('connection reset after the facts were stored', true, 'ECONNRESET')
    },
    viewLinks: async (...a: Parameters<ServingIndex['viewLinks']>) => (wrapped.fail(), inner.viewLinks(...a)),
    sessionDevelopers: async (...a: Parameters<ServingIndex['sessionDevelopers']>) => (wrapped.fail(), inner.sessionDevelopers(...a)),
    sessionLinks: async (...a: Parameters<ServingIndex['sessionLinks']>) => (wrapped.fail(), inner.sessionLinks(...a)),
    write: (...a: Parameters<ServingIndex['write']>) => inner.write(...a),
    written: (...a: Parameters<ServingIndex['written']>) => inner.written(...a),
  }
  return wrapped
}

/** Delivers the steps one after another through the harness's engines, a second of clock apart. */
export const runScenario = async (h: Harness, s: Scenario, steps: readonly OutboundRecord[][], serving: { failures: number }): Promise<void> => {
  for (const [i, records] of steps.entries()) {
    serving.failures = s.failingSteps.filter((f) => f === i).length
    h.clock.advance(1000)
    h.publish(...records)
    await waitUntil(() => SERVING_HANDLERS.every((handler) => h.caughtUp(handler)), 20_000, `step ${i} consumed`)
  }
  for (const handler of SERVING_HANDLERS) expect(h.dlq(handler)).toEqual([])
}

const PERIODS: readonly Period[] = [
  { from: DAY0 - DAY, to: DAY0 + 5 * DAY },
  ...[0, 1, 2, 3].map((d) => ({ from: DAY0 + d * DAY, to: DAY0 + (d + 1) * DAY })),
  { from: DAY0 + 1.5 * DAY, to: DAY0 + 2.5 * DAY },
]

/** For every developer and period, the serving answers equal the oracle's; returns how many sessions were counted in all. */
export const expectServingEqualsFacts = async (serving: ReadModel, facts: ReadModel, developers: readonly Guid[]): Promise<number> => {
  let counted = 0
  for (const developer of developers) {
    for (const period of PERIODS) {
      const days = { fromDate: new Date(period.from).toISOString().slice(0, 10), toDate: new Date(period.to - 1).toISOString().slice(0, 10) }
      const [expected, actual] = await Promise.all(
        [facts, serving].map(async (m) => ({
          ...(await m.sessionMetrics(developer, period)),
          funnel: await m.funnelCounts(developer, days, {}),
        })),
      )
      expect({ developer, period, ...actual }).toEqual({ developer, period, ...expected })
      counted += expected?.sessions.sessions ?? 0
    }
  }
  return counted
}

export const startServingHarness = async (h: Harness): Promise<void> => {
  h.clock.current = SCENARIO_CLOCK
  await h.start()
}

export { Harness }

/**
 * The same property on a ClickHouse store (server or chdb): the engines write through the
 * serving fact store, the dimension reader is the store's; then, for the same data, the serving
 * tables are emptied and rebuilt by the backfill from the stored facts, and must agree again.
 */
export const servingPropertyOnClickHouse = async (session: ClickHouseSession, numRuns: number): Promise<void> => {
  await resetDatabase(session)
  let counted = 0
  let h: Harness | undefined
  try {
    await fc.assert(
      fc.asyncProperty(scenarioArbitrary, async (scenario) => {
        h = new Harness(SERVING_HANDLERS, { ...FAST_CONFIG, flushIntervalMs: 5 })
        const serving = failing(new ClickHouseServingIndex(session))
        h.sink = new ServingFactStore(new ClickHouseFactStore(session), serving)
        h.lookup = new ClickHouseDimensionReader(session)
        await startServingHarness(h)
        const { developers, steps } = scenarioRecords(scenario)
        await runScenario(h, scenario, steps, serving)
        await h.stopAll()
        const [servingRead, factsRead] = [new ClickHouseReadModel(session, 'serving'), new ClickHouseReadModel(session, 'facts')]
        counted += await expectServingEqualsFacts(servingRead, factsRead, developers)
        for (const table of ['developer_view_facts', 'developer_session_facts', 'view_links', 'session_view_links', 'session_links', 'funnel_developer_daily', 'serving_backfill']) {
          await session.command(sql`TRUNCATE TABLE ${ident(session.database)}.${ident(table)}`)
        }
        await backfillServing(session, () => undefined)
        await expectServingEqualsFacts(servingRead, factsRead, developers)
      }),
      { numRuns },
    )
  } finally {
    await h?.stopAll()
  }
  expect(counted).toBeGreaterThan(0)
}
