import { groupBy } from '../../domain/group-by.js'
import { EMPTY_GUID } from '../../domain/guid.js'
import { dayOf, type ServingSessionRow, type ServingViewRow } from '../../domain/serving-links.js'
import { daySummary, sessionState, viewSummaryDays, type SessionState } from '../../domain/session-states.js'
import type { DeveloperDay, SessionKey, ViewKey, SessionDaysIndex } from '../ports/session-days-index.port.js'

/**
 * After a batch's serving rows are stored (and before its offsets are committed): the states of
 * the (developer, session) pairs those rows touched, then the summaries of the days the states
 * count them on, now or in any stored state before (a session whose first view day moved leaves
 * its old day), and of the days around the batch's view rows. Each is recomputed from the rows as
 * stored, never adjusted, so a redelivered batch or a crash in between only recomputes again.
 */
export const keepSessionDaysCurrent = async (index: SessionDaysIndex, views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> => {
  if (views.length === 0 && sessions.length === 0) return
  const touchedViews = distinctBy<ViewKey>(views.map((v) => ({ developerId: v.keyDeveloperId, viewId: v.propertyObjectViewId })), (k) => `${k.developerId}|${k.viewId}`)
  // a view's stored rows may name another session than the batch's row (its winner can move between them)
  const rowsOfViews = touchedViews.length > 0 ? await index.viewRows(touchedViews) : []
  const touched = distinctBy<SessionKey>(
    [
      ...sessions.map((s) => ({ developerId: s.keyDeveloperId, sessionId: s.sessionId })),
      ...[...views, ...rowsOfViews].map((v) => ({ developerId: v.keyDeveloperId, sessionId: v.sessionId })),
    ].filter((k) => k.sessionId !== EMPTY_GUID),
    sessionKey,
  )
  const days: DeveloperDay[] = views.flatMap((v) => viewSummaryDays(dayOf(v.eventTime)).map((day) => ({ developerId: v.keyDeveloperId, day })))
  if (touched.length > 0) {
    const [viewRows, facts] = await Promise.all([index.sessionViewRows(touched), index.sessionFacts(touched)])
    const rowsOf = rowsOfSessions(viewRows)
    const factsBy = groupBy(facts, (f) => sessionKey({ developerId: f.keyDeveloperId, sessionId: f.sessionId }))
    const states: SessionState[] = touched.map((k) => sessionState(k.developerId, k.sessionId, rowsOf(k), factsBy.get(sessionKey(k)) ?? []))
    await index.writeStates(states)
    days.push(...(await index.countedDays(touched)))
  }
  const summaryDays = distinctBy(days, dayKey)
  const [candidates, dayRows] = await Promise.all([index.dayCandidates(summaryDays), index.dayViewRows(summaryDays)])
  const candidatesBy = groupBy(candidates, dayKey)
  const rowsBy = groupBy(dayRows, (r) => dayKey({ developerId: r.keyDeveloperId, day: dayOf(r.eventTime) }))
  const rowsAround = (d: DeveloperDay) => [d.day - 1, d.day, d.day + 1].flatMap((day) => rowsBy.get(dayKey({ developerId: d.developerId, day })) ?? [])
  await index.writeSummaries(summaryDays.map((d) => daySummary(d.developerId, d.day, (candidatesBy.get(dayKey(d)) ?? []).map((c) => c.state), rowsAround(d))))
}

/** Per (developer, session): the rows of every view with a row naming the session (what its state reads). */
const rowsOfSessions = (rows: readonly ServingViewRow[]): ((k: SessionKey) => ServingViewRow[]) => {
  const rowsByView = groupBy(rows, (r) => `${r.keyDeveloperId}|${r.propertyObjectViewId}`)
  const viewsBySession = new Map<string, Set<string>>()
  for (const r of rows) {
    const key = sessionKey({ developerId: r.keyDeveloperId, sessionId: r.sessionId })
    viewsBySession.set(key, (viewsBySession.get(key) ?? new Set()).add(`${r.keyDeveloperId}|${r.propertyObjectViewId}`))
  }
  return (k) => [...(viewsBySession.get(sessionKey(k)) ?? [])].flatMap((view) => rowsByView.get(view) ?? [])
}

const sessionKey = (k: SessionKey) => `${k.developerId}|${k.sessionId}`
const dayKey = (k: DeveloperDay) => `${k.developerId}|${k.day}`

const distinctBy = <T>(items: readonly T[], key: (t: T) => string): T[] => [...new Map(items.map((t) => [key(t), t])).values()]

