import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import type { Guid } from '../../../src/domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../../src/domain/serving-links.js'
import { dayRecords, totalsOfRecords } from '../../../src/domain/day-records.js'
import { dayOf } from '../../../src/domain/serving-links.js'
import { developerViews } from '../../../src/domain/session-totals.js'

// The day records' rule of attribution: for every developer and whole-day period, the records
// (each session on the first day of the developer's views of it, carried into a period that starts
// after that day) answer what the read model answers from every row. The rows here need
// not follow the producers' assumptions: both sides read the same developer-keyed rows.

const DAY = 86_400_000
const DAY0 = Date.parse('2026-11-28T00:00:00Z')
const DAYS = 5
const DEVELOPERS = ['de000000-0000-4000-8000-000000000000', 'de000000-0000-4000-8000-000000000001', 'de000000-0000-4000-8000-000000000002'] as Guid[]
const NO_SESSION = '00000000-0000-0000-0000-000000000000' as Guid
const sessionId = (i: number) => `5e000000-0000-4000-8000-${String(i).padStart(12, '0')}` as Guid
const viewId = (i: number) => `0f000000-0000-4000-8000-${String(i).padStart(12, '0')}` as Guid

const factArb = fc.record({
  durationSeconds: fc.nat(5000),
  guest: fc.boolean(),
  ingestionSecond: fc.nat(4),
  factId: fc.constantFrom('a', 'b', 'c'),
})

const viewRowArb = fc.record({
  developer: fc.nat(DEVELOPERS.length - 1),
  isClosed: fc.boolean(),
  durationSeconds: fc.nat(900),
  ingestionSecond: fc.nat(4),
  factId: fc.constantFrom('a', 'b', 'c'),
  // a row's time around its view's (midnight between them, sometimes)
  shiftMinutes: fc.integer({ min: -600, max: 600 }),
  withoutSession: fc.boolean(),
})

const scenarioArb = fc.record({
  sessions: fc.array(fc.array(factArb, { maxLength: 3 }), { minLength: 1, maxLength: 10 }),
  views: fc.array(
    fc.record({
      session: fc.nat(9),
      minute: fc.nat(DAYS * 1440 - 1),
      rows: fc.array(viewRowArb, { minLength: 1, maxLength: 3 }),
    }),
    { maxLength: 30 },
  ),
})

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never

const rowsOf = (s: Scenario): { views: Omit<ServingViewRow, 'keyDeveloperId'>[]; sessions: Omit<ServingSessionRow, 'keyDeveloperId'>[] } => ({
  views: s.views.flatMap((v, i) =>
    v.rows.map((r) => ({
      propertyObjectViewId: viewId(i),
      factId: r.factId,
      developerId: DEVELOPERS[r.developer] as Guid,
      sessionId: r.withoutSession && !r.isClosed ? NO_SESSION : sessionId(v.session),
      isClosed: r.isClosed,
      durationSeconds: r.isClosed ? r.durationSeconds : 0,
      eventTime: DAY0 + (v.minute + r.shiftMinutes) * 60_000,
      ingestionTime: (1_800_000_000 + r.ingestionSecond) * 1000,
    })),
  ),
  sessions: s.sessions.flatMap((facts, i) =>
    facts.map((f) => ({
      sessionId: sessionId(i),
      factId: f.factId,
      durationSeconds: f.durationSeconds,
      viewerKind: f.guest ? ('Guest' as const) : ('User' as const),
      eventTime: DAY0,
      ingestionTime: (1_800_000_000 + f.ingestionSecond) * 1000,
    })),
  ),
})

describe('session metrics of whole days from day records', () => {
  it('equal the read model for every developer and period, sessions across midnight and moved views included', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const { views, sessions } = rowsOf(scenario)
        const tables = new InMemoryTables()
        // every row under every developer's key: the winner decides whose a view is
        for (const keyDeveloperId of DEVELOPERS) {
          tables.serving.views.push(...views.map((r) => ({ ...r, keyDeveloperId })))
          tables.serving.sessions.push(...sessions.map((r) => ({ ...r, keyDeveloperId })))
        }
        const model = new InMemoryReadModel(tables, 'serving')
        const firstDay = Math.floor(DAY0 / DAY) - 1
        for (const developer of DEVELOPERS) {
          const winners = developerViews(developer, views)
          // day records, computed a day at a time and all at once (domain/day-records.ts)
          const own = winners.map((v) => ({ sessionId: v.sessionId, day: dayOf(v.eventTime), isClosed: v.isClosed, durationSeconds: v.durationSeconds }))
          const lastDay = firstDay + DAYS + 1
          const byDay = Array.from({ length: DAYS + 2 }, (_, i) => dayRecords(own, sessions, firstDay + i, firstDay + i)).flat()
          const atOnce = dayRecords(own, sessions, firstDay, lastDay)
          for (let a = firstDay; a <= lastDay; a++) {
            for (let b = a; b <= lastDay; b++) {
              const period = { from: a * DAY, to: (b + 1) * DAY }
              const expected = await model.sessionMetrics(developer, period)
              expect(totalsOfRecords(byDay, a, b)).toEqual(expected)
              expect(totalsOfRecords(atOnce, a, b)).toEqual(expected)
            }
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
