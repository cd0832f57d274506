import type { Guid } from './guid.js'
import { dayOf, type DayNumber, type DayedSessionLink, type ServingSessionRow, type ServingViewRow, type SessionDeveloperLink, type SessionLink, type ViewLink } from './serving-links.js'

/**
 * What a batch writes to the serving tables once its facts are stored and the link tables were
 * looked up (serving-links.ts says why this is enough). Pure: the same for every store.
 */

/**
 * The view rows of a batch's views, each under the developers it belongs under. `found` is every
 * stored row of those views (the batch's own included). A batch row goes under every developer of
 * its view; an older row only under a developer that no stored row outside the batch carries (a
 * new one: a property object that moved), so the common case writes no row twice.
 */
export const viewCopies = (batch: readonly ViewLink[], found: readonly ViewLink[]): ServingViewRow[] => {
  // a redelivered event enriched again may name another developer: a row is a (FactId, DeveloperId)
  const rowKey = (r: ViewLink) => `${r.factId}/${r.developerId}`
  const inBatch = new Set(batch.map(rowKey))
  const views = new Map<Guid, Map<string, ViewLink>>()
  for (const r of [...found, ...batch]) {
    let rows = views.get(r.propertyObjectViewId)
    if (!rows) views.set(r.propertyObjectViewId, (rows = new Map()))
    // of a row stored more than once (a redelivery), the latest IngestionTime: the one a merge keeps
    const kept = rows.get(rowKey(r))
    if (!kept || r.ingestionTime >= kept.ingestionTime) rows.set(rowKey(r), r)
  }
  const copies: ServingViewRow[] = []
  for (const viewId of new Set(batch.map((r) => r.propertyObjectViewId))) {
    const rows = [...(views.get(viewId)?.values() ?? [])]
    const developers = new Set(rows.map((r) => r.developerId))
    const carriedOutside = new Set(rows.filter((r) => !inBatch.has(rowKey(r))).map((r) => r.developerId))
    for (const r of rows) {
      for (const d of developers) {
        if (inBatch.has(rowKey(r)) || !carriedOutside.has(d)) copies.push({ ...r, keyDeveloperId: d })
      }
    }
  }
  return copies
}

/** A session fact with the days it is linked under (sessionDays of its start and last activity). */
export interface SessionWithDays extends SessionLink {
  readonly days: readonly DayNumber[]
}

/** A batch's session facts under the developer of every view row naming the session within its days. */
export const sessionCopies = (facts: readonly SessionWithDays[], links: readonly SessionDeveloperLink[]): ServingSessionRow[] => {
  const linksOf = groupBy(links, (l) => l.sessionId)
  const copies: ServingSessionRow[] = []
  for (const { days: linkedDays, ...fact } of facts) {
    const found = linksOf.get(fact.sessionId)
    if (!found) continue
    const days = new Set(linkedDays)
    const developers = new Set(found.filter((l) => days.has(l.day)).map((l) => l.developerId))
    for (const d of developers) copies.push({ ...fact, keyDeveloperId: d })
  }
  return copies
}

/** The stored facts of a batch's view sessions under the developers of those view rows (a fact linked on the view's day). */
export const sessionCopiesForViews = (batch: readonly ViewLink[], sessions: readonly DayedSessionLink[]): ServingSessionRow[] => {
  const linked = groupBy(sessions, (s) => `${s.sessionId}@${s.day}`)
  const copies = new Map<string, ServingSessionRow>()
  for (const v of batch) {
    for (const { day: _day, ...fact } of linked.get(`${v.sessionId}@${dayOf(v.eventTime)}`) ?? []) {
      const key = `${v.developerId}/${fact.factId}`
      const kept = copies.get(key)
      if (!kept || fact.ingestionTime > kept.ingestionTime) copies.set(key, { ...fact, keyDeveloperId: v.developerId })
    }
  }
  return [...copies.values()]
}

const groupBy = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const group = groups.get(k)
    if (group) group.push(item)
    else groups.set(k, [item])
  }
  return groups
}
