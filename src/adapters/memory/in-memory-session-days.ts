import type { DeveloperDay, SessionKey, ViewKey, SessionDaysIndex } from '../../application/ports/session-days-index.port.js'
import type { Guid } from '../../domain/guid.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import { daySummary, firstDayOf, type DaySummary, type SessionState, type ViewState } from '../../domain/session-states.js'
import type { InMemoryTables } from './in-memory-tables.js'

/**
 * View and session states and day summaries in memory, over the serving rows of InMemoryTables:
 * every stored state is kept (as a MergeTree keeps rows until it merges them), reads take the
 * highest version, and what any state named or counted is indexed as migration 0012's index
 * tables index it. Lookups go through indexes of the serving rows.
 */
export class InMemorySessionDays implements SessionDaysIndex {
  private readonly viewStates = new Map<string, ViewState[]>()
  private readonly sessionStates = new Map<string, SessionState[]>()
  private readonly viewsOfSession = new Map<string, Set<Guid>>()
  private readonly sessionsOn = new Map<string, Set<Guid>>()
  private readonly viewsOn = new Map<string, Set<Guid>>()
  private readonly spanningOn = new Map<string, Set<Guid>>()
  private readonly daySummaries = new Map<string, DaySummary>()
  private readonly rowsByView = new Map<string, ServingViewRow[]>()
  private readonly factsBySession = new Map<string, ServingSessionRow[]>()
  private viewsIndexed = 0
  private sessionsIndexed = 0

  constructor(private readonly tables: InMemoryTables) {}

  async viewRows(views: readonly ViewKey[]): Promise<ServingViewRow[]> {
    this.sync()
    return [...new Set(views.map(viewKey))].flatMap((k) => this.rowsByView.get(k) ?? [])
  }

  async sessionFacts(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]> {
    this.sync()
    return [...new Set(sessions.map(sessionKey))].flatMap((k) => this.factsBySession.get(k) ?? [])
  }

  async writeViewStates(states: readonly ViewState[]): Promise<void> {
    for (const v of states) {
      push(this.viewStates, viewKey(v), v)
      add(this.viewsOfSession, sessionKey(v), v.viewId)
      if (v.day !== undefined) add(this.viewsOn, dayKey({ developerId: v.developerId, day: v.day }), v.viewId)
    }
  }

  async sessionViews(sessions: readonly SessionKey[]): Promise<(SessionKey & { readonly view: ViewState })[]> {
    return distinct(sessions, sessionKey).flatMap((k) => [...(this.viewsOfSession.get(sessionKey(k)) ?? [])].map((viewId) => ({ ...k, view: this.latestView(k.developerId, viewId) })))
  }

  async writeSessionStates(states: readonly SessionState[]): Promise<void> {
    for (const s of states) {
      push(this.sessionStates, sessionKey(s), s)
      const first = firstDayOf(s)
      if (first === undefined) continue
      add(this.sessionsOn, dayKey({ developerId: s.developerId, day: first }), s.sessionId)
      if (s.viewDays.length > 1) add(this.spanningOn, dayKey({ developerId: s.developerId, day: first }), s.sessionId)
    }
  }

  async countedDays(sessions: readonly SessionKey[], views: readonly ViewKey[]): Promise<DeveloperDay[]> {
    return [
      ...sessions.flatMap((k) => (this.sessionStates.get(sessionKey(k)) ?? []).flatMap((s) => {
        const day = firstDayOf(s)
        return day === undefined ? [] : [{ developerId: k.developerId, day }]
      })),
      ...views.flatMap((k) => (this.viewStates.get(viewKey(k)) ?? []).flatMap((v) => (v.day === undefined ? [] : [{ developerId: k.developerId, day: v.day }]))),
    ]
  }

  async summarizeDays(days: readonly DeveloperDay[]): Promise<void> {
    for (const d of distinct(days, dayKey)) {
      const sessions = [...(this.sessionsOn.get(dayKey(d)) ?? [])].map((id) => this.latestSession(d.developerId, id))
      const views = [...(this.viewsOn.get(dayKey(d)) ?? [])].map((id) => this.latestView(d.developerId, id))
      const summary = daySummary(d.developerId, d.day, sessions, views)
      const kept = this.daySummaries.get(dayKey(d))
      if (kept === undefined || summary.version >= kept.version) this.daySummaries.set(dayKey(d), summary)
    }
  }

  async summaries(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DaySummary[]> {
    return daysOf(first, last).flatMap((day) => this.daySummaries.get(dayKey({ developerId, day })) ?? [])
  }

  async spanning(developerId: Guid, first: DayNumber, last: DayNumber): Promise<SessionState[]> {
    const ids = new Set(daysOf(first, last).flatMap((day) => [...(this.spanningOn.get(dayKey({ developerId, day })) ?? [])]))
    return [...ids].map((id) => this.latestSession(developerId, id)).filter((s) => s.viewDays.length > 1)
  }

  private latestSession(developerId: Guid, sessionId: Guid): SessionState {
    return highest(this.sessionStates.get(sessionKey({ developerId, sessionId })) ?? [])
  }

  private latestView(developerId: Guid, viewId: Guid): ViewState {
    return highest(this.viewStates.get(viewKey({ developerId, viewId })) ?? [])
  }

  /** Indexes the serving rows appended since the last lookup (the serving tables only grow). */
  private sync(): void {
    const { views, sessions } = this.tables.serving
    for (; this.viewsIndexed < views.length; this.viewsIndexed++) {
      const r = views[this.viewsIndexed] as ServingViewRow
      push(this.rowsByView, viewKey({ developerId: r.keyDeveloperId, viewId: r.propertyObjectViewId }), r)
    }
    for (; this.sessionsIndexed < sessions.length; this.sessionsIndexed++) {
      const r = sessions[this.sessionsIndexed] as ServingSessionRow
      push(this.factsBySession, sessionKey({ developerId: r.keyDeveloperId, sessionId: r.sessionId }), r)
    }
  }
}

const viewKey = (k: ViewKey) => `${k.developerId}|${k.viewId}`
const sessionKey = (k: SessionKey) => `${k.developerId}|${k.sessionId}`
const dayKey = (k: DeveloperDay) => `${k.developerId}|${k.day}`
const daysOf = (first: DayNumber, last: DayNumber): DayNumber[] => Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i)
const distinct = <T>(items: readonly T[], key: (t: T) => string): T[] => [...new Map(items.map((t) => [key(t), t])).values()]
const highest = <T extends { readonly version: number }>(versions: readonly T[]): T => versions.reduce((a, b) => (b.version > a.version ? b : a))

const add = (index: Map<string, Set<Guid>>, key: string, id: Guid): void => {
  const set = index.get(key)
  if (set) set.add(id)
  else index.set(key, new Set([id]))
}

const push = <T>(index: Map<string, T[]>, key: string, item: T): void => {
  const list = index.get(key)
  if (list) list.push(item)
  else index.set(key, [item])
}
