import { describe, expect, it } from 'vitest'
import { InMemorySessionDays } from '../../../src/adapters/memory/in-memory-session-days.js'
import { InMemoryTables } from '../../../src/adapters/memory/in-memory-tables.js'
import { CoalescedSessionDaysStep } from '../../../src/application/serving/coalesced-session-days-step.js'
import type { SessionDaysIndex } from '../../../src/application/ports/session-days-index.port.js'
import { dayOf, type ServingViewRow } from '../../../src/domain/serving-links.js'
import type { Guid } from '../../../src/domain/guid.js'
import { guid } from '../../support/events.js'

// Issue 45: batches handed in while a session-days step runs share the next step; each caller
// returns once the step covering its rows has, and a failed step fails all of its callers.
const developer = guid() as Guid
const at = Date.parse('2026-11-30T10:00:00Z')

const closedView = (): ServingViewRow => ({
  propertyObjectViewId: guid() as Guid, factId: guid(), developerId: developer, sessionId: guid() as Guid, isClosed: true,
  durationSeconds: 60, eventTime: at, ingestionTime: at, keyDeveloperId: developer,
})

/** The in-memory index, counting the day summaries it is asked for and failing the next step when told. */
const counted = () => {
  const tables = new InMemoryTables()
  const inner = new InMemorySessionDays(tables)
  const calls = { summarize: 0, failNext: false }
  const index: SessionDaysIndex = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver) as unknown
      if (typeof value !== 'function') return value
      return (...args: unknown[]) => {
        if (name === 'viewRows' && calls.failNext) {
          calls.failNext = false
          return Promise.reject(new Error('store down'))
        }
        if (name === 'summarizeDays') calls.summarize++
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  })
  return { tables, index, calls }
}

const store = (tables: InMemoryTables, views: ServingViewRow[]) => {
  tables.serving.views.push(...views)
  return views
}

describe('CoalescedSessionDaysStep', () => {
  it('runs the batches handed in during a step as one step after it; every caller waits for its own', async () => {
    const { tables, index, calls } = counted()
    const step = new CoalescedSessionDaysStep(index)
    const batches = [0, 1, 2].map(() => store(tables, [closedView(), closedView()]))
    await Promise.all(batches.map((b) => step.keep(b, [])))
    expect(calls.summarize).toBe(2)
    const [summary] = await index.summaries(developer, dayOf(at), dayOf(at))
    expect(summary?.views).toEqual({ views: 6, closedViews: 6, totalViewSeconds: 360 })
  })

  it('fails every caller of a failed step, and the next step runs', async () => {
    const { tables, index, calls } = counted()
    const step = new CoalescedSessionDaysStep(index)
    const first = step.keep(store(tables, [closedView()]), [])
    calls.failNext = true // the first step has read its views already: the second one fails
    await first
    const failed = [store(tables, [closedView()]), store(tables, [closedView()])]
    const outcomes = await Promise.allSettled(failed.map((b) => step.keep(b, [])))
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected'])
    // the engine retries both batches: their rows are stored already, the step runs again
    await Promise.all([...failed, store(tables, [closedView()])].map((b) => step.keep(b, [])))
    const [summary] = await index.summaries(developer, dayOf(at), dayOf(at))
    expect(summary?.views.views).toBe(4)
  })
})
