import type { Guid } from './guid.js'
import { dayOf, type DayNumber, type DayedSessionLink, type ServingSessionRow, type ServingViewRow, type SessionDeveloperLink, type SessionLink, type ViewLink } from './serving-links.js'
import { groupBy } from './group-by.js'

/**
 * What a batch writes to the serving tables once its facts are stored and the link tables were
 * looked up (serving-links.ts says why this is enough). Pure: the same for every store.
 */

/** A stored row of a view (the latest IngestionTime of its (FactId, DeveloperId)) and whether the batch has it. */
interface HeldRow {
  row: ViewLink
  inBatch: boolean
}

/**
 * The view rows of a batch's views, each under the developers it belongs under. `found` is every
 * stored row of those views (the batch's own included). A batch row goes under every developer of
 * its view; an older row only under a developer that no stored row outside the batch carries (a
 * new one: a property object that moved), so the common case writes no row twice. A view has a
 * few rows: they are compared in place, with no key strings or maps per row.
 */
export const viewCopies = (batch: readonly ViewLink[], found: readonly ViewLink[]): ServingViewRow[] => {
  const views = new Map<Guid, HeldRow[]>()
  // a redelivered event enriched again may name another developer: a row is a (FactId, DeveloperId)
  const hold = (r: ViewLink, inBatch: boolean) => {
    let rows = views.get(r.propertyObjectViewId)
    if (!rows) {
      if (!inBatch) return
      views.set(r.propertyObjectViewId, (rows = []))
    }
    const kept = rows.find((h) => h.row.factId === r.factId && h.row.developerId === r.developerId)
    if (!kept) rows.push({ row: r, inBatch })
    else {
      kept.inBatch ||= inBatch
      // of a row stored more than once (a redelivery), the latest IngestionTime: the one a merge keeps
      if (r.ingestionTime > kept.row.ingestionTime) kept.row = r
    }
  }
  for (const r of batch) hold(r, true)
  for (const r of found) hold(r, false)
  const copies: ServingViewRow[] = []
  for (const rows of views.values()) {
    const developers = distinctDevelopers(rows)
    for (const { row, inBatch } of rows) {
      for (const d of developers) {
        if (inBatch || !rows.some((h) => !h.inBatch && h.row.developerId === d)) copies.push(servingViewRow(row, d))
      }
    }
  }
  return copies
}

const distinctDevelopers = (rows: readonly HeldRow[]): Guid[] => {
  const developers: Guid[] = []
  for (const { row } of rows) if (!developers.includes(row.developerId)) developers.push(row.developerId)
  return developers
}

const servingViewRow = (r: ViewLink, keyDeveloperId: Guid): ServingViewRow => ({
  propertyObjectViewId: r.propertyObjectViewId,
  factId: r.factId,
  developerId: r.developerId,
  sessionId: r.sessionId,
  isClosed: r.isClosed,
  durationSeconds: r.durationSeconds,
  eventTime: r.eventTime,
  ingestionTime: r.ingestionTime,
  keyDeveloperId,
})

/** A session fact with the days it is linked under (sessionDays of its start and last activity). */
export interface SessionWithDays extends SessionLink {
  readonly days: readonly DayNumber[]
}

/** A batch's session facts under the developer of every view row naming the session within its days. */
export const sessionCopies = (facts: readonly SessionWithDays[], links: readonly SessionDeveloperLink[]): ServingSessionRow[] => {
  const linksOf = groupBy(links, (l) => l.sessionId)
  const copies: ServingSessionRow[] = []
  for (const fact of facts) {
    const found = linksOf.get(fact.sessionId)
    if (!found) continue
    const days = new Set(fact.days)
    const developers = new Set(found.filter((l) => days.has(l.day)).map((l) => l.developerId))
    for (const d of developers) copies.push(servingSessionRow(fact, d))
  }
  return copies
}

/** The stored facts of a batch's view sessions under the developers of those view rows (a fact linked on the view's day). */
export const sessionCopiesForViews = (batch: readonly ViewLink[], sessions: readonly DayedSessionLink[]): ServingSessionRow[] => {
  const linked = groupBy(sessions, (s) => s.sessionId)
  const copies: ServingSessionRow[] = []
  // per developer, per FactId: where its copy is (the latest IngestionTime of the fact's rows)
  const at = new Map<Guid, Map<string, number>>()
  for (const v of batch) {
    const facts = linked.get(v.sessionId)
    if (!facts) continue
    const day = dayOf(v.eventTime)
    for (const fact of facts) {
      if (fact.day !== day) continue
      let byFact = at.get(v.developerId)
      if (!byFact) at.set(v.developerId, (byFact = new Map()))
      const i = byFact.get(fact.factId)
      if (i === undefined) {
        byFact.set(fact.factId, copies.length)
        copies.push(servingSessionRow(fact, v.developerId))
      } else if (fact.ingestionTime > (copies[i] as ServingSessionRow).ingestionTime) copies[i] = servingSessionRow(fact, v.developerId)
    }
  }
  return copies
}

const servingSessionRow = (s: SessionLink, keyDeveloperId: Guid): ServingSessionRow => ({
  sessionId: s.sessionId,
  factId: s.factId,
  durationSeconds: s.durationSeconds,
  viewerKind: s.viewerKind,
  eventTime: s.eventTime,
  ingestionTime: s.ingestionTime,
  keyDeveloperId,
})
