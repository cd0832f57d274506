import fc from 'fast-check'
import { expect } from 'vitest'
import { ClickHouseDayRecords } from '../../src/adapters/clickhouse/clickhouse-day-records.js'
import { ClickHouseFactStore } from '../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingIndex } from '../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import type { DayRecordStore } from '../../src/application/ports/day-records.port.js'
import type { FactStore } from '../../src/application/ports/fact-store.port.js'
import type { ReadModel } from '../../src/application/ports/read-model.port.js'
import type { ServingIndex } from '../../src/application/ports/serving-index.port.js'
import { DayRecordsReadModel } from '../../src/application/read/day-records-read-model.js'
import { CachedReadModel } from '../../src/adapters/cache/cached-read-model.js'
import { ClickHouseDataVersions } from '../../src/adapters/clickhouse/clickhouse-data-versions.js'
import type { DataVersionReader } from '../../src/application/ports/data-version.port.js'
import { ServingFactStore } from '../../src/application/serving/serving-fact-store.js'
import type { FactRow } from '../../src/domain/fact-row.js'
import type { Guid } from '../../src/domain/guid.js'

// Issue 45: day records answer, for every developer and whole-day period, what the serving rows
// answer (issue 33's read), after facts went through the serving step with the per-day counts on:
// sessions across midnight, views moving between sessions and developers, durations replaced by
// later facts (shorter ones too, leaving days with views), batches of two instances racing (every store call yields, so the other instance's
// calls and reads run in between), reads between the writes (records computed from a snapshot
// and stored), and batches dying at any store call of their serving step (between their rows and
// their counts too), then redelivered; reads through each instance's read cache, as composed. Every
// run has ids of its own, so a store need not be emptied.

const DAY = 86_400_000
const DAY0 = Date.parse('2026-11-28T00:00:00Z')
const DAYS = 4
const DEVELOPERS = 2
const NO_SESSION = '00000000-0000-0000-0000-000000000000' as Guid

/** The ids of one run: fresh on every call. */
const runIds = () => {
  const run = Math.random().toString(16).slice(2, 10).padEnd(8, '0')
  const id = (kind: string, i: number) => `${run}-${kind}-4000-8000-${String(i).padStart(12, '0')}` as Guid
  return { developer: (i: number) => id('de00', i), session: (i: number) => id('5e00', i), view: (i: number) => id('0f00', i), object: (i: number) => id('0b00', i) }
}
type Ids = ReturnType<typeof runIds>

const sessionFactArb = fc.record({
  kind: fc.constant('session' as const),
  session: fc.nat(5),
  durationSeconds: fc.nat(5000),
  guest: fc.boolean(),
  factId: fc.constantFrom('a', 'b'),
  // the span around the session's views: up to an hour inside them (the serving tables' skew), or
  // wider; or ending days before its last view (an older version delivered late: a later, shorter fact)
  startSlackMinutes: fc.integer({ min: -60, max: 180 }),
  endSlackMinutes: fc.oneof(fc.integer({ min: -60, max: 180 }), fc.integer({ min: -3 * 1440, max: -61 })),
})

const viewRowArb = fc.record({
  kind: fc.constant('view' as const),
  view: fc.nat(9),
  session: fc.nat(5),
  developer: fc.nat(DEVELOPERS - 1),
  isClosed: fc.boolean(),
  withoutSession: fc.boolean(),
  durationSeconds: fc.nat(900),
  // a view's rows lie within a day of one another: each around its view's own minute
  minute: fc.integer({ min: -300, max: 300 }),
  factId: fc.constantFrom('a', 'b', 'c'),
})

type RowSpec = (typeof sessionFactArb extends fc.Arbitrary<infer S> ? S : never) | (typeof viewRowArb extends fc.Arbitrary<infer V> ? V : never)

const viewTime = (r: { readonly view: number; readonly minute: number }) => DAY0 + (((r.view * 617) % (DAYS * 1440 - 600)) + 300 + r.minute) * 60_000

/** Each session's earliest and latest view time in the whole scenario (its facts' spans are set around them). */
const viewTimes = (batches: readonly { readonly rows: readonly RowSpec[] }[]): Map<number, { first: number; last: number }> => {
  const times = new Map<number, { first: number; last: number }>()
  for (const r of batches.flatMap((b) => b.rows)) {
    if (r.kind !== 'view') continue
    const t = viewTime(r)
    const kept = times.get(r.session)
    times.set(r.session, { first: Math.min(kept?.first ?? t, t), last: Math.max(kept?.last ?? t, t) })
  }
  return times
}

// A FactId is one event: rows that share it (redeliveries) differ in IngestionTime and, re-enriched
// after their property object moved, DeveloperId only. A session fact's span starts before its
// session's views, up to an hour inside them, as the serving tables assume, and ends around them or
// before some of them; its EventTime is its StartedAt, as session-ended's mapping makes it.
const factOf = (ids: Ids, r: RowSpec, times: Map<number, { first: number; last: number }>): FactRow => {
  if (r.kind === 'session') {
    const factId = `${r.factId}-${r.durationSeconds}-${r.guest}-${r.startSlackMinutes}-${r.endSlackMinutes}`
    const views = times.get(r.session) ?? { first: DAY0, last: DAY0 }
    const startedAt = views.first - r.startSlackMinutes * 60_000
    const lastActivityAt = Math.max(startedAt, views.last + r.endSlackMinutes * 60_000)
    return {
      table: 'session_facts',
      row: {
        factId, sourceEventId: factId, sessionId: ids.session(r.session), anonymousId: ids.object(99), userId: r.guest ? null : ids.object(98),
        viewerKind: r.guest ? 'Guest' : 'User', tenantId: NO_SESSION, brandId: null, developerId: null,
        eventTime: startedAt, startedAt, lastActivityAt, durationSeconds: r.durationSeconds,
      },
    }
  }
  const factId = `${r.factId}-${r.isClosed}-${r.withoutSession}-${r.session}-${r.minute}-${r.durationSeconds}`
  const eventTime = viewTime(r)
  const developerId = ids.developer(r.developer)
  return {
    table: 'property_object_view_facts',
    row: {
      developerId, projectId: ids.object(1), buildingId: ids.object(2), layoutGroupId: ids.object(3), layoutId: ids.object(4), propertyObjectId: ids.object(5),
      factId, sourceEventId: factId, propertyObjectViewId: ids.view(r.view), sessionId: r.withoutSession && !r.isClosed ? NO_SESSION : ids.session(r.session),
      anonymousId: ids.object(99), userId: null, viewerKind: 'Guest', viewSource: 'Catalog', viewSourceRaw: 'Catalog', isClosed: r.isClosed,
      viewedAt: eventTime, lastActivityAt: r.isClosed ? eventTime + 60_000 : null, durationSeconds: r.isClosed ? r.durationSeconds : null, eventTime,
    },
  }
}

const batchArb = fc.record({
  rows: fc.array(fc.oneof(viewRowArb, viewRowArb, sessionFactArb), { minLength: 1, maxLength: 4 }),
  instance: fc.nat(1),
  ingestionSecond: fc.nat(6),
  // the serving-index call at which the instance dies (the batch is then redelivered), if any
  crashAt: fc.option(fc.nat(6), { freq: 3 }),
  // a read by the same instance after the batch: [developer, first day offset, days]
  read: fc.option(fc.tuple(fc.nat(DEVELOPERS - 1), fc.integer({ min: -1, max: DAYS }), fc.nat(DAYS)), { freq: 2 }),
})

const scenarioArb = fc.record({ batches: fc.array(batchArb, { minLength: 1, maxLength: 12 }), delays: fc.array(fc.oneof(fc.nat(3), fc.nat(60)), { minLength: 1, maxLength: 50 }) })

/** A store's calls as an instance sees them: each yields a little (as a round trip would); `crashAt` kills the instance at that call. */
const racing = <T extends object>(inner: T, delay: () => number, crashAt: number | null = null): T => {
  let calls = 0
  return new Proxy(inner, {
    get: (target, name, receiver) => {
      const member = Reflect.get(target, name, receiver) as unknown
      if (typeof member !== 'function') return member
      return async (...args: unknown[]) => {
        if (crashAt !== null && calls++ >= crashAt) throw new Error('killed')
        for (let turns = delay(); turns > 0; turns--) await Promise.resolve()
        return (member as (...a: unknown[]) => Promise<unknown>).apply(target, args)
      }
    },
  })
}

const refusing: ReadModel = new Proxy({} as ReadModel, {
  get: () => () => Promise.reject(new Error('a whole-day period must be read from the day records')),
})

/** A store under test: its fact store and serving index (composed into the serving step), its day records, the read cache's versions, and its serving read (the oracle). */
export interface DayRecordsStore {
  readonly facts: FactStore
  readonly serving: ServingIndex
  readonly records: DayRecordStore
  readonly versions: DataVersionReader
  readonly oracle: ReadModel
}

/** The day records behind the read cache, as the composition root stacks them. */
const cachedRecords = (records: DayRecordStore, versions: DataVersionReader): ReadModel =>
  new CachedReadModel(new DayRecordsReadModel(refusing, records), versions, { now: () => Date.now() }, { maxEntries: 1000, maxStaleMs: 0 })

export const dayRecordsProperty = async (store: () => DayRecordsStore, numRuns: number): Promise<void> => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ batches, delays }) => {
      const ids = runIds()
      const developers = Array.from({ length: DEVELOPERS }, (_, i) => ids.developer(i))
      const { facts, serving, records, versions, oracle } = store()
      let d = 0
      const delay = () => delays[d++ % delays.length] as number
      const day0 = Math.floor(DAY0 / DAY)
      const times = viewTimes(batches)
      const readers = [cachedRecords(racing(records, delay), racing(versions, delay)), cachedRecords(racing(records, delay), racing(versions, delay))]
      const run = async (instance: number) => {
        const reads = readers[instance] as ReadModel
        for (const b of batches.filter((x) => x.instance === instance)) {
          const rows = b.rows.map((r) => factOf(ids, r, times))
          const at = (1_800_000_000 + b.ingestionSecond) * 1000
          if (b.crashAt !== null) {
            await new ServingFactStore(facts, racing(serving, delay, b.crashAt)).append(rows, at).catch((e: unknown) => {
              if (!(e instanceof Error && e.message.includes('killed'))) throw e
            })
          }
          // delivered (again): its facts collapse, its serving step runs again
          await new ServingFactStore(facts, racing(serving, delay)).append(rows, at + (b.crashAt === null ? 0 : 1000))
          if (b.read) {
            const [developer, offset, days] = b.read
            const period = { from: (day0 + offset) * DAY, to: (day0 + offset + days + 1) * DAY }
            // not awaited: the instance's later batches and reads run while it computes, as a service's reads do beside its consumers
            reading.push(reads.sessionMetrics(developers[developer] as Guid, period))
          }
        }
      }
      const reading: Promise<unknown>[] = []
      await Promise.all([run(0), run(1)])
      await Promise.all(reading)

      // through each instance's cache (a question it never cached is read from the records)
      for (const reads of readers) {
        for (const developer of developers) {
          for (let a = day0 - 1; a <= day0 + DAYS; a++) {
            for (let b = a; b <= day0 + DAYS; b++) {
              const period = { from: a * DAY, to: (b + 1) * DAY }
              const [expected, actual] = await Promise.all([oracle.sessionMetrics(developer, period), reads.sessionMetrics(developer, period)])
              expect(actual, `developer ${developer}, days ${a}..${b}`).toEqual(expected)
            }
          }
        }
      }
    }),
    { numRuns },
  )
}

/** The property on a ClickHouse store (server or chdb), its serving-row read as the oracle. */
export const dayRecordsPropertyOnClickHouse = async (session: ClickHouseSession, numRuns: number): Promise<void> => {
  await dayRecordsProperty(() => ({
    facts: new ClickHouseFactStore(session),
    serving: new ClickHouseServingIndex(session),
    records: new ClickHouseDayRecords(session),
    versions: new ClickHouseDataVersions(session),
    oracle: new ClickHouseReadModel(session, 'serving'),
  }), numRuns)
}
