import { EMPTY_GUID } from '../../domain/guid.js'
import { dayOf, type ServingSessionRow, type ServingViewRow } from '../../domain/serving-links.js'
import { daySummary, sessionState, viewSummaryDays, type SessionState } from '../../domain/session-states.js'
import type { DeveloperDay, DeveloperSession, DeveloperView, SessionDaysIndex } from '../ports/session-days-index.port.js'

/**
 * After a batch's serving rows are stored (and before its offsets are committed): the states of
 * the (developer, session) pairs those rows touched, then the summaries of the days the states
 * count them on, now or in any stored state before (a session whose first view day moved leaves
 * its old day), and of the days around the batch's view rows. Each is recomputed from the rows as
 * stored, never adjusted, so a redelivered batch or a crash in between only recomputes again.
 */
export const keepSessionDaysCurrent = async (index: SessionDaysIndex, views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> => {
  if (views.length === 0 && sessions.length === 0) return
  const touchedViews = distinctBy<DeveloperView>(views.map((v) => ({ developerId: v.keyDeveloperId, viewId: v.propertyObjectViewId })), (k) => `${k.developerId}|${k.viewId}`)
  // a view's stored rows may name another session than the batch's row (its winner can move between them)
  const rowsOfViews = touchedViews.length > 0 ? await index.viewRows(touchedViews) : []
  const touched = distinctBy<DeveloperSession>(
    [
      ...sessions.map((s) => ({ developerId: s.keyDeveloperId, sessionId: s.sessionId })),
      ...[...views, ...rowsOfViews].map((v) => ({ developerId: v.keyDeveloperId, sessionId: v.sessionId })),
    ].filter((k) => k.sessionId !== EMPTY_GUID),
    sessionKey,
  )
  const days: DeveloperDay[] = views.flatMap((v) => viewSummaryDays(dayOf(v.eventTime)).map((day) => ({ developerId: v.keyDeveloperId, day })))
  if (touched.length > 0) {
    const [viewRows, facts] = await Promise.all([index.sessionViewRows(touched), index.sessionFacts(touched)])
    const rowsBy = groupBy(viewRows, (r) => r.keyDeveloperId)
    const factsBy = groupBy(facts, (f) => sessionKey({ developerId: f.keyDeveloperId, sessionId: f.sessionId }))
    const states: SessionState[] = touched.map((k) => sessionState(k.developerId, k.sessionId, rowsBy.get(k.developerId) ?? [], factsBy.get(sessionKey(k)) ?? []))
    await index.writeStates(states)
    days.push(...(await index.countedDays(touched)))
  }
  const summaryDays = distinctBy(days, dayKey)
  const [candidates, dayRows] = await Promise.all([index.dayCandidates(summaryDays), index.dayViewRows(summaryDays)])
  const candidatesBy = groupBy(candidates, dayKey)
  const rowsBy = groupBy(dayRows, (r) => r.keyDeveloperId)
  await index.writeSummaries(summaryDays.map((d) => daySummary(d.developerId, d.day, (candidatesBy.get(dayKey(d)) ?? []).map((c) => c.state), rowsBy.get(d.developerId) ?? [])))
}

const sessionKey = (k: DeveloperSession) => `${k.developerId}|${k.sessionId}`
const dayKey = (k: DeveloperDay) => `${k.developerId}|${k.day}`

const distinctBy = <T>(items: readonly T[], key: (t: T) => string): T[] => [...new Map(items.map((t) => [key(t), t])).values()]

const groupBy = <T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> => {
  const by = new Map<string, T[]>()
  for (const t of items) {
    const k = key(t)
    const group = by.get(k)
    if (group) group.push(t)
    else by.set(k, [t])
  }
  return by
}

