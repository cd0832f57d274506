import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { InMemoryDayRecords } from '../../../src/adapters/memory/in-memory-day-records.js'
import { InMemoryFactStore } from '../../../src/adapters/memory/in-memory-fact-store.js'
import { InMemoryReadModel } from '../../../src/adapters/memory/in-memory-read-model.js'
import { InMemoryServingIndex } from '../../../src/adapters/memory/in-memory-serving-index.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import type { DayRecordStore } from '../../../src/application/ports/day-records.port.js'
import { DayRecordsReadModel } from '../../../src/application/read/day-records-read-model.js'
import { ServingFactStore } from '../../../src/application/serving/serving-fact-store.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import type { Guid } from '../../../src/domain/guid.js'

// Issue 62's defects of the day records read model, each on the memory store through the serving step.

const DAY = 86_400_000
const NOV_20 = Date.parse('2026-11-20T00:00:00Z')
const NOVEMBER = { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') }
const id = () => randomUUID() as Guid
const NONE = '00000000-0000-0000-0000-000000000000' as Guid

const session = (sessionId: Guid, at: number, durationSeconds: number): FactRow => ({
  table: 'session_facts',
  row: {
    factId: id(), sourceEventId: id(), sessionId, anonymousId: id(), userId: null, viewerKind: 'Guest', tenantId: NONE, brandId: null, developerId: null,
    eventTime: at, startedAt: at, lastActivityAt: at + 600_000, durationSeconds,
  },
})

const view = (developerId: Guid, sessionId: Guid, at: number): FactRow => ({
  table: 'property_object_view_facts',
  row: {
    developerId, projectId: id(), buildingId: id(), layoutGroupId: id(), layoutId: id(), propertyObjectId: id(),
    factId: id(), sourceEventId: id(), propertyObjectViewId: id(), sessionId, anonymousId: id(), userId: null, viewerKind: 'Guest',
    viewSource: 'Catalog', viewSourceRaw: 'Catalog', isClosed: true, viewedAt: at, lastActivityAt: at + 60_000, durationSeconds: 60, eventTime: at,
  },
})

const memoryStore = () => {
  const tables = new InMemoryTables()
  const facts = new ServingFactStore(new InMemoryFactStore(tables), new InMemoryServingIndex(tables))
  const serving = new InMemoryReadModel(tables, 'serving')
  return { tables, facts, serving, records: new InMemoryDayRecords(tables) }
}

/** A developer's session with one view on a day, appended through the serving step. */
const visit = async (facts: ServingFactStore, developer: Guid, at: number, durationSeconds = 300) => {
  const sessionId = id()
  await facts.append([session(sessionId, at - 60_000, durationSeconds), view(developer, sessionId, at)], at)
}

describe('DayRecordsReadModel', () => {
  it('a read that arrives while an earlier one computes includes a batch committed in between (defect 1)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    await visit(facts, developer, NOV_20 + 3_600_000)
    let release: () => void = () => undefined
    const held = new Promise<void>((r) => (release = r))
    let first = true
    // the first read's rows are read, then it waits: a batch commits meanwhile
    const slowFirst: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: async (...a) => {
        const inputs = await records.recordInputs(...a)
        if (first) {
          first = false
          await held
        }
        return inputs
      },
      storeRecords: (...a) => records.storeRecords(...a),
    }
    const reads = new DayRecordsReadModel(serving, slowFirst)
    const r1 = reads.sessionMetrics(developer, NOVEMBER)
    await new Promise((r) => setTimeout(r, 5))
    await visit(facts, developer, NOV_20 + 7_200_000)
    const r2 = reads.sessionMetrics(developer, NOVEMBER)
    release()
    await r1
    expect((await r2).sessions.sessions).toBe(2)
  })

  it('answers when storing what it computed fails, and says so (defect 5)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    await visit(facts, developer, NOV_20 + 3_600_000)
    const refused: unknown[] = []
    const refusing: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: (...a) => records.recordInputs(...a),
      storeRecords: async () => {
        throw new Error('too many parts')
      },
    }
    const reads = new DayRecordsReadModel(serving, refusing, (e) => refused.push(e))
    expect(await reads.sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
    await new Promise((r) => setTimeout(r, 0))
    expect(refused).toHaveLength(1)
  })

  it('does not read days whose counts were lost as empty (defect 6)', async () => {
    const { tables, facts, serving, records } = memoryStore()
    const developer = id()
    const reads = new DayRecordsReadModel(serving, records)
    await visit(facts, developer, NOV_20 + 3_600_000)
    expect((await reads.sessionMetrics(developer, NOVEMBER)).sessions.sessions).toBe(1)
    await visit(facts, developer, NOV_20 + DAY)
    tables.dayWrites.clear()
    expect(await reads.sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
  })

  it('keeps the record stored last, whatever its stamp (defect 3)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    await visit(facts, developer, NOV_20 + 3_600_000)
    await new DayRecordsReadModel(serving, records).sessionMetrics(developer, NOVEMBER)
    await new Promise((r) => setTimeout(r, 0))
    const day = NOV_20 / DAY
    const [kept] = await records.records(developer, day, day)
    if (!kept) throw new Error('no record stored')
    await records.storeRecords(developer, [{ ...kept, stamp: { ...kept.stamp, viewWrites: kept.stamp.viewWrites + 100 } }])
    await records.storeRecords(developer, [kept])
    expect((await records.records(developer, day, day))[0]?.stamp).toEqual(kept.stamp)
  })

  it('answers from the serving rows while rows may be written without counts', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    await visit(facts, developer, NOV_20 + 3_600_000)
    const uncounted: DayRecordStore = {
      dayWrites: async (...a) => ({ ...(await records.dayWrites(...a)), counted: false }),
      records: (...a) => records.records(...a),
      recordInputs: async () => {
        throw new Error('no record is computed while uncounted writes may happen')
      },
      storeRecords: (...a) => records.storeRecords(...a),
    }
    const reads = new DayRecordsReadModel(serving, uncounted)
    expect(await reads.sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
  })

  it('a later, shorter fact of a session stales the days it left that hold its views (defect 7)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    const sessionId = id()
    const start = NOV_20 + 3_600_000
    const long = { ...session(sessionId, start, 300), row: { ...session(sessionId, start, 300).row, lastActivityAt: start + 2 * DAY } } as FactRow
    await facts.append([long, view(developer, sessionId, start + 60_000), view(developer, sessionId, start + 2 * DAY)], start + 2 * DAY)
    const reads = new DayRecordsReadModel(serving, records)
    const lastDay = { from: NOV_20 + 2 * DAY, to: NOV_20 + 3 * DAY }
    expect((await reads.sessionMetrics(developer, lastDay)).sessions.totalDurationSeconds).toBe(300)
    await new Promise((r) => setTimeout(r, 0))
    // an older version delivered late: it ends on the first day, so it is linked on that day only
    await facts.append([session(sessionId, start, 120)], start + 3 * DAY)
    expect(await serving.sessionMetrics(developer, lastDay)).toMatchObject({ sessions: { sessions: 1, totalDurationSeconds: 120 } })
    expect(await reads.sessionMetrics(developer, lastDay)).toEqual(await serving.sessionMetrics(developer, lastDay))
  })

  it('a session copy written for a view stales the days of the developer\'s other views of that session', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    const sessionId = id()
    const start = NOV_20 + 5 * 3_600_000
    const storedAt = NOV_20 + 3 * DAY
    // a session fact linked on the 20th only, and a view of it on the 22nd, outside its span: no copy yet
    await facts.append([{ ...session(sessionId, start, 300), row: { ...session(sessionId, start, 300).row, lastActivityAt: start } } as FactRow], storedAt)
    await facts.append([view(developer, sessionId, NOV_20 + 2 * DAY + 3_600_000)], storedAt)
    const reads = new DayRecordsReadModel(serving, records)
    const the22nd = { from: NOV_20 + 2 * DAY, to: NOV_20 + 3 * DAY }
    expect((await reads.sessionMetrics(developer, the22nd)).sessions.sessions).toBe(0)
    await new Promise((r) => setTimeout(r, 0))
    // a view on the 20th finds the fact and writes its copy: the 22nd's view now reads it too
    await facts.append([view(developer, sessionId, start + 60_000)], storedAt)
    expect(await serving.sessionMetrics(developer, the22nd)).toMatchObject({ sessions: { sessions: 1, totalDurationSeconds: 300 } })
    expect(await reads.sessionMetrics(developer, the22nd)).toEqual(await serving.sessionMetrics(developer, the22nd))
  })

  it('computes a run too heavy for one computation in halves, and reads a day too heavy from the serving rows (issue 66: a heap at its limit)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    for (let d = 0; d < 6; d++) await visit(facts, developer, NOV_20 + d * DAY + 3_600_000)
    const asked: number[] = []
    // a store that holds "too many" views in any run longer than a day
    const oneDayAtATime: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: async (developerId, first, last, maxViews) => (asked.push(last - first + 1), last > first ? undefined : records.recordInputs(developerId, first, last, maxViews)),
      storeRecords: (...a) => records.storeRecords(...a),
    }
    expect(await new DayRecordsReadModel(serving, oneDayAtATime).sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
    expect(Math.max(...asked)).toBe(30)
    expect(asked.filter((n) => n === 1)).toHaveLength(30)
    const tooHeavy: DayRecordStore = { ...oneDayAtATime, recordInputs: async () => undefined, storeRecords: async () => { throw new Error('nothing computed, nothing stored') } }
    const other = id()
    await visit(facts, other, NOV_20 + 3_600_000)
    expect(await new DayRecordsReadModel(serving, tooHeavy).sessionMetrics(other, NOVEMBER)).toEqual(await serving.sessionMetrics(other, NOVEMBER))
  })

  it('remembers a day too heavy: the next reads of a period holding it go to the serving rows without reading its views again (issue 66: slow reads)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    for (let d = 0; d < 3; d++) await visit(facts, developer, NOV_20 + d * DAY + 3_600_000)
    const heavy = (NOV_20 + DAY) / DAY
    const asked: [number, number][] = []
    const oneHeavyDay: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: async (developerId, first, last, maxViews) => (asked.push([first, last]), first <= heavy && heavy <= last ? undefined : records.recordInputs(developerId, first, last, maxViews)),
      storeRecords: (...a) => records.storeRecords(...a),
    }
    const reads = new DayRecordsReadModel(serving, oneHeavyDay)
    expect(await reads.sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
    expect(asked.filter(([first, last]) => first === heavy && last === heavy)).toHaveLength(1)
    const before = asked.length
    await visit(facts, developer, NOV_20 + DAY + 7_200_000)
    expect(await reads.sessionMetrics(developer, NOVEMBER)).toEqual(await serving.sessionMetrics(developer, NOVEMBER))
    expect(asked).toHaveLength(before)
    // a period without it is still computed
    const the20th = { from: NOV_20, to: NOV_20 + DAY }
    expect(await reads.sessionMetrics(developer, the20th)).toEqual(await serving.sessionMetrics(developer, the20th))
    expect(asked.length).toBeGreaterThan(before)
  })

  it('halves a run and finds a day heavy from the write counts, before reading its views (issue 66: a new process\'s first reads)', async () => {
    const { facts, serving, records } = memoryStore()
    const developer = id()
    for (let d = 0; d < 4; d++) for (let v = 0; v < (d === 1 ? 3 : 1); v++) await visit(facts, developer, NOV_20 + d * DAY + 3_600_000 + v)
    const heavy = (NOV_20 + DAY) / DAY
    const asked: [number, number][] = []
    const counting: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: async (developerId, first, last, maxViews) => (asked.push([first, last]), records.recordInputs(developerId, first, last, maxViews)),
      storeRecords: (...a) => records.storeRecords(...a),
    }
    // the 21st holds 3 views, every other day 1: with a limit of 2, no run holding the 21st or the day after it is read
    const reads = new DayRecordsReadModel(serving, counting, undefined, { maxRunViews: 2, maxComputing: 2 })
    const days = { from: NOV_20 - 2 * DAY, to: NOV_20 + 4 * DAY }
    expect(await reads.sessionMetrics(developer, days)).toEqual(await serving.sessionMetrics(developer, days))
    expect(asked.filter(([first, last]) => first <= heavy + 1 && heavy <= last)).toEqual([])
    expect(asked.length).toBeGreaterThan(0)
  })

  it('a third read waits while two computations are out, then computes (issue 66)', async () => {
    const { facts, serving, records } = memoryStore()
    const developers = [id(), id(), id()]
    for (const d of developers) await visit(facts, d, NOV_20 + 3_600_000)
    let release: () => void = () => undefined
    const held = new Promise<void>((r) => (release = r))
    let computing = 0
    let most = 0
    const holding: DayRecordStore = {
      dayWrites: (...a) => records.dayWrites(...a),
      records: (...a) => records.records(...a),
      recordInputs: async (...a) => {
        most = Math.max(most, ++computing)
        await held
        computing--
        return records.recordInputs(...a)
      },
      storeRecords: (...a) => records.storeRecords(...a),
    }
    const reads = new DayRecordsReadModel(serving, holding)
    const answers = developers.map((d) => reads.sessionMetrics(d, NOVEMBER))
    await new Promise((r) => setTimeout(r, 5))
    expect(computing).toBe(2)
    release()
    expect((await Promise.all(answers)).map((a) => a.sessions.sessions)).toEqual([1, 1, 1])
    expect(most).toBe(2)
  })
})
