import type { DeveloperDay, Latest, LatestStates, SessionKey, SessionView, ViewKey, SessionDaysIndex } from '../../application/ports/session-days-index.port.js'
import { distinctBy } from '../../domain/group-by.js'
import type { Guid } from '../../domain/guid.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import { daySummary, firstDayOf, type DayItem, type DaySummary, type SessionState, type ViewState } from '../../domain/session-states.js'
import type { InMemoryTables } from './in-memory-tables.js'

/**
 * View and session states and day summaries in memory, over the serving rows of InMemoryTables:
 * every stored state is kept (as a MergeTree keeps rows until it merges them), reads take the
 * highest version, the views any state named a session by are indexed as migration 0011 indexes
 * them, and day items keep the highest version per (day, item). Lookups go through indexes of the serving rows.
 */
export class InMemorySessionDays implements SessionDaysIndex {
  private readonly viewStates = new Map<string, ViewState[]>()
  private readonly sessionStates = new Map<string, SessionState[]>()
  private readonly viewsOfSession = new Map<string, Set<Guid>>()
  private readonly items = new Map<string, Map<string, DayItem>>()
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
    }
  }

  async sessionViews(sessions: readonly SessionKey[]): Promise<SessionView[]> {
    return distinctBy(sessions, sessionKey).flatMap((k) =>
      [...(this.viewsOfSession.get(sessionKey(k)) ?? [])].flatMap((viewId) => this.latestView({ developerId: k.developerId, viewId }).map((view) => ({ ...k, view }))),
    )
  }

  async writeSessionStates(states: readonly SessionState[]): Promise<void> {
    for (const s of states) {
      push(this.sessionStates, sessionKey(s), s)
      const first = firstDayOf(s)
      if (first !== undefined && s.viewDays.length > 1) add(this.spanningOn, dayKey({ developerId: s.developerId, day: first }), s.sessionId)
    }
  }

  async latestStates(sessions: readonly SessionKey[], views: readonly ViewKey[]): Promise<LatestStates> {
    return {
      sessions: distinctBy(sessions, sessionKey).flatMap((k) => {
        const versions = this.sessionStates.get(sessionKey(k)) ?? []
        return versions.length === 0 ? [] : [{ state: highest(versions), days: daysCounted(versions, firstDayOf) }]
      }),
      views: distinctBy(views, viewKey).flatMap((k) => this.latestView(k)),
    }
  }

  async writeDayItems(items: readonly DayItem[]): Promise<void> {
    for (const i of items) {
      const key = dayKey(i)
      let onDay = this.items.get(key)
      if (!onDay) this.items.set(key, (onDay = new Map()))
      const itemKey = `${i.kind}|${i.itemId}`
      const kept = onDay.get(itemKey)
      if (kept === undefined || i.version > kept.version) onDay.set(itemKey, i)
    }
  }

  async summarizeDays(days: readonly DeveloperDay[]): Promise<void> {
    for (const d of distinctBy(days, dayKey)) {
      const summary = daySummary(d.developerId, d.day, this.items.get(dayKey(d))?.values() ?? [])
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

  /** The view's highest state and the days its states counted it on; none before its first state. */
  private latestView(k: ViewKey): Latest<ViewState>[] {
    const versions = this.viewStates.get(viewKey(k)) ?? []
    return versions.length === 0 ? [] : [{ state: highest(versions), days: daysCounted(versions, (v) => v.day) }]
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
const daysCounted = <T>(versions: readonly T[], day: (t: T) => DayNumber | undefined): DayNumber[] => [...new Set(versions.flatMap((v) => day(v) ?? []))]
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
