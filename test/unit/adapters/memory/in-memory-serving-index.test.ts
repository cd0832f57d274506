import { describe, expect, it } from 'vitest'
import { InMemoryServingIndex } from '../../../../src/adapters/memory/in-memory-serving-index.js'
import { InMemoryTables, type StoredOf } from '../../../../src/adapters/memory/in-memory-tables.js'
import type { FactRow } from '../../../../src/domain/fact-row.js'
import { dayOf } from '../../../../src/domain/serving-links.js'
import { at, dimPath, id, sessionFact, viewFact } from '../../../../src/testing/contracts/fact-rows.mother.js'

/** Tables that count every stored row a reader is handed through a scan of a whole table (`of`). */
class CountingTables extends InMemoryTables {
  scanned = 0
  override of<T extends FactRow['table']>(table: T): StoredOf<T>[] {
    const rows = super.of(table)
    this.scanned += rows.length
    return rows
  }
}

describe('InMemoryServingIndex: a lookup costs the rows of its ids, not the store', () => {
  it('10,000 stored views and sessions: three lookups find the one view and its session without scanning a table', async () => {
    const tables = new CountingTables()
    const t = at('2026-11-30T10:00:00Z')
    const path = dimPath()
    tables.append(Array.from({ length: 5_000 }, () => viewFact(dimPath(), id(), t)), t)
    tables.append(Array.from({ length: 5_000 }, () => sessionFact({ at: t })), t)
    const sessionId = id()
    const view = viewFact(path, sessionId, t)
    tables.append([view, sessionFact({ sessionId, at: t })], t)
    const index = new InMemoryServingIndex(tables)
    const day = dayOf(t)
    const viewId = view.table === 'property_object_view_facts' ? view.row.propertyObjectViewId : id()

    const [views, developers, sessions] = await Promise.all([
      index.viewLinks([day], [viewId]),
      index.sessionDevelopers([day], [sessionId]),
      index.sessionLinks([day], [sessionId]),
    ])
    expect(views.map((v) => v.propertyObjectViewId)).toEqual([viewId])
    expect(developers).toEqual([{ day, sessionId, developerId: path.developerId }])
    expect(sessions.map((s) => [s.sessionId, s.day])).toEqual([[sessionId, day]])
    expect(tables.scanned).toBe(0)
  })
})
