import fc from 'fast-check'
import { expect } from 'vitest'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseServingIndex } from '../../src/adapters/clickhouse/clickhouse-serving-index.js'
import type { ClickHouseSession } from '../../src/adapters/clickhouse/clickhouse-session.js'
import { ClickHouseSessionDays } from '../../src/adapters/clickhouse/clickhouse-session-days.js'
import type { ReadModel } from '../../src/application/ports/read-model.port.js'
import type { SessionDaysIndex } from '../../src/application/ports/session-days-index.port.js'
import { keepSessionDaysCurrent } from '../../src/application/serving/session-days-step.js'
import type { Guid } from '../../src/domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../src/domain/serving-links.js'
import { SummarizedReadModel } from '../../src/application/read/summarized-read-model.js'

// Issue 45: the day summaries kept at ingest answer, for every developer and whole-day period,
// what the serving rows answer (issue 33's read): sessions across midnight, views moving between
// sessions and developers, durations replaced by later facts, rows arriving in any order in
// batches of two instances racing (their index calls interleaved at random), and batches
// crashing between their rows and their summaries, then redelivered. Every run has ids of its own,
// so a store need not be emptied between runs.

const DAY = 86_400_000
const DAY0 = Date.parse('2026-11-28T00:00:00Z')
const DAYS = 4
const DEVELOPERS = 2
const NO_SESSION = '00000000-0000-0000-0000-000000000000' as Guid

type Row = { readonly view: Omit<ServingViewRow, 'keyDeveloperId'> } | { readonly session: Omit<ServingSessionRow, 'keyDeveloperId'> }

/** The ids of one run: fresh on every call. */
const runIds = () => {
  const run = Math.random().toString(16).slice(2, 10).padEnd(8, '0')
  const id = (kind: string, i: number) => `${run}-${kind}-4000-8000-${String(i).padStart(12, '0')}` as Guid
  return { developer: (i: number) => id('de00', i), session: (i: number) => id('5e00', i), view: (i: number) => id('0f00', i) }
}
type Ids = ReturnType<typeof runIds>

const sessionFactArb = fc.record({ kind: fc.constant('session' as const), session: fc.nat(5), durationSeconds: fc.nat(5000), guest: fc.boolean(), ingestionSecond: fc.nat(6), factId: fc.constantFrom('a', 'b') })

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
  ingestionSecond: fc.nat(6),
  factId: fc.constantFrom('a', 'b', 'c'),
})

// A FactId is one event: rows that share it (redeliveries) differ in IngestionTime and, re-enriched
// after their property object moved, DeveloperId (part of the serving rows' key) only.
type RowSpec = (typeof sessionFactArb extends fc.Arbitrary<infer S> ? S : never) | (typeof viewRowArb extends fc.Arbitrary<infer V> ? V : never)

const rowOf = (ids: Ids, r: RowSpec): Row =>
  r.kind === 'session'
    ? { session: { sessionId: ids.session(r.session), factId: `${r.factId}-${r.durationSeconds}-${r.guest}`, durationSeconds: r.durationSeconds, viewerKind: r.guest ? 'Guest' : 'User', eventTime: DAY0, ingestionTime: (1_800_000_000 + r.ingestionSecond) * 1000 } }
    : {
        view: {
          propertyObjectViewId: ids.view(r.view),
          factId: `${r.factId}-${r.isClosed}-${r.withoutSession}-${r.session}-${r.minute}-${r.durationSeconds}`,
          developerId: ids.developer(r.developer),
          sessionId: r.withoutSession && !r.isClosed ? NO_SESSION : ids.session(r.session),
          isClosed: r.isClosed,
          durationSeconds: r.isClosed ? r.durationSeconds : 0,
          eventTime: DAY0 + (((r.view * 617) % (DAYS * 1440 - 600)) + 300 + r.minute) * 60_000,
          ingestionTime: (1_800_000_000 + r.ingestionSecond) * 1000,
        },
      }

const batchArb = fc.record({
  rows: fc.array(fc.oneof(viewRowArb, viewRowArb, sessionFactArb), { minLength: 1, maxLength: 4 }),
  instance: fc.nat(1),
  // the index call after which the instance dies (the batch is then redelivered), if any
  crashAfter: fc.option(fc.nat(8), { freq: 4 }),
})

const scenarioArb = fc.record({ batches: fc.array(batchArb, { minLength: 1, maxLength: 12 }), delays: fc.array(fc.oneof(fc.nat(3), fc.nat(120)), { minLength: 1, maxLength: 50 }) })

/** The index an instance sees: each call yields a little (as a round trip would), some die. */
const racing = (inner: SessionDaysIndex, delay: () => number, crashAfter: number | null): SessionDaysIndex => {
  let calls = 0
  return new Proxy(inner, {
    get: (target, name, receiver) => {
      const member = Reflect.get(target, name, receiver) as unknown
      if (typeof member !== 'function') return member
      return async (...args: unknown[]) => {
        if (crashAfter !== null && calls++ >= crashAfter) throw new Error('killed')
        // a few turns of the event loop's microtasks: the other instance's calls run in between
        for (let turns = delay(); turns > 0; turns--) await Promise.resolve()
        return (member as (...a: unknown[]) => Promise<unknown>).apply(target, args)
      }
    },
  })
}

const refusing: ReadModel = new Proxy({} as ReadModel, {
  get: () => () => Promise.reject(new Error('a whole-day period must be read from the summaries')),
})

/** A store under test: its session-days index, how serving rows are stored in it, and its serving read (the oracle). */
export interface SessionDaysStore {
  readonly index: SessionDaysIndex
  readonly oracle: ReadModel
  writeServing(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void>
}

export const sessionDaysProperty = async (store: () => SessionDaysStore, numRuns: number): Promise<void> => {
  await fc.assert(
    fc.asyncProperty(scenarioArb, async ({ batches, delays }) => {
      const ids = runIds()
      const developers = Array.from({ length: DEVELOPERS }, (_, i) => ids.developer(i))
      const { index, oracle, writeServing } = store()
      let d = 0
      const delay = () => delays[d++ % delays.length] as number
      // every row under every developer's key: a superset of what the serving step writes
      const underEveryKey = (rows: readonly Row[]) => ({
        views: rows.flatMap((r) => ('view' in r ? developers.map((keyDeveloperId) => ({ ...r.view, keyDeveloperId })) : [])),
        sessions: rows.flatMap((r) => ('session' in r ? developers.map((keyDeveloperId) => ({ ...r.session, keyDeveloperId })) : [])),
      })
      const run = async (instance: number) => {
        for (const b of batches.filter((x) => x.instance === instance)) {
          const { views, sessions } = underEveryKey(b.rows.map((row) => rowOf(ids, row)))
          // each instance stores the batch's serving rows before its step looks (ServingFactStore)
          await writeServing(views, sessions)
          if (b.crashAfter !== null) {
            await keepSessionDaysCurrent(racing(index, delay, b.crashAfter), views, sessions).catch((e: Error) => {
              if (e.message !== 'killed') throw e
            })
            await writeServing(views, sessions) // redelivered: stored again, collapsing
          }
          await keepSessionDaysCurrent(racing(index, delay, null), views, sessions)
        }
      }
      await Promise.all([run(0), run(1)])

      const day0 = Math.floor(DAY0 / DAY)
      // whole-day periods only: the summaries answer every one (the inner read refuses)
      const summarized = new SummarizedReadModel(refusing, index)
      for (const developer of developers) {
        for (let a = day0 - 1; a <= day0 + DAYS; a++) {
          for (let b = a; b <= day0 + DAYS; b++) {
            const period = { from: a * DAY, to: (b + 1) * DAY }
            const [sessions, views, summarizedSessions, summarizedViews] = await Promise.all([
              oracle.sessionTotals(developer, period), oracle.viewTotals(developer, period), summarized.sessionTotals(developer, period), summarized.viewTotals(developer, period),
            ])
            expect(JSON.stringify({ sessions: summarizedSessions, views: summarizedViews }), `developer ${developer}, days ${a}..${b}`).toEqual(JSON.stringify({ sessions, views }))
          }
        }
      }
    }),
    { numRuns },
  )
}

/** The property on a ClickHouse store (server or chdb), its serving-row read as the oracle. */
export const sessionDaysPropertyOnClickHouse = async (session: ClickHouseSession, numRuns: number): Promise<void> => {
  const serving = new ClickHouseServingIndex(session)
  await sessionDaysProperty(() => ({
    index: new ClickHouseSessionDays(session),
    oracle: new ClickHouseReadModel(session, 'serving'),
    writeServing: (views, sessions) => serving.write(views, sessions),
  }), numRuns)
}
