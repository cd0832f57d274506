import { distinctBy, groupBy } from '../../domain/group-by.js'
import { EMPTY_GUID } from '../../domain/guid.js'
import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import { sessionDayItems, sessionState, viewDayItems, viewState, type ViewState } from '../../domain/session-states.js'
import type { DeveloperDay, Latest, SessionKey, ViewKey, SessionDaysIndex } from '../ports/session-days-index.port.js'

/**
 * After a batch's serving rows are stored (and before its offsets are committed): the states of
 * the views it wrote rows of, then of the sessions those views' rows name or its facts are of,
 * then their day items placed by their latest states (on the day each counts on and every day it
 * left), then the summaries of those days. Each level is stored before the next reads it, and each
 * is recomputed from what is stored, never adjusted, so a redelivered batch or a crash in between
 * only recomputes again.
 */
export const keepSessionDaysCurrent = async (index: SessionDaysIndex, views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> => {
  if (views.length === 0 && sessions.length === 0) return
  const touchedViews = distinctBy<ViewKey>(views.map((v) => ({ developerId: v.keyDeveloperId, viewId: v.propertyObjectViewId })), viewKey)
  const touched: SessionKey[] = sessions.map((s) => ({ developerId: s.keyDeveloperId, sessionId: s.sessionId }))
  if (touchedViews.length > 0) {
    const rows = groupBy(await index.viewRows(touchedViews), (r) => viewKey({ developerId: r.keyDeveloperId, viewId: r.propertyObjectViewId }))
    const viewStates = touchedViews.map((k) => viewState(k.developerId, k.viewId, rows.get(viewKey(k)) ?? []))
    await index.writeViewStates(viewStates)
    // every session a state of these views named is among their rows' sessions: those it left change too
    for (const list of rows.values()) touched.push(...list.map((r) => ({ developerId: r.keyDeveloperId, sessionId: r.sessionId })))
  }
  const touchedSessions = distinctBy(touched.filter((k) => k.sessionId !== EMPTY_GUID), sessionKey)
  // read after this step stored the view states: a touched view found here needs no second read
  const viewsRead = new Map<string, Latest<ViewState>>()
  if (touchedSessions.length > 0) {
    const [named, facts] = await Promise.all([index.sessionViews(touchedSessions), index.sessionFacts(touchedSessions)])
    for (const n of named) viewsRead.set(viewKey(n.view.state), n.view)
    const viewsBy = groupBy(named, sessionKey)
    const factsBy = groupBy(facts, (f) => sessionKey({ developerId: f.keyDeveloperId, sessionId: f.sessionId }))
    const sessionStates = touchedSessions.map((k) => sessionState(k.developerId, k.sessionId, (viewsBy.get(sessionKey(k)) ?? []).map((n) => n.view.state), factsBy.get(sessionKey(k)) ?? []))
    await index.writeSessionStates(sessionStates)
  }
  // placed by the latest state read after storing, whoever stored it: of two instances, the one that reads last places every item right
  const latest = await index.latestStates(touchedSessions, touchedViews.filter((k) => !viewsRead.has(viewKey(k))))
  const latestViews = [...latest.views, ...touchedViews.flatMap((k) => viewsRead.get(viewKey(k)) ?? [])]
  const items = [...latest.sessions.flatMap((l) => sessionDayItems(l.state, l.days)), ...latestViews.flatMap((l) => viewDayItems(l.state, l.days))]
  if (items.length === 0) return
  await index.writeDayItems(items)
  await index.summarizeDays(distinctBy<DeveloperDay>(items.map((i) => ({ developerId: i.developerId, day: i.day })), dayKey))
}

const viewKey = (k: ViewKey) => `${k.developerId}|${k.viewId}`
const sessionKey = (k: SessionKey) => `${k.developerId}|${k.sessionId}`
const dayKey = (k: DeveloperDay) => `${k.developerId}|${k.day}`
