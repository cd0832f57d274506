import type { DayCandidate, DeveloperDay, SessionKey, ViewKey, SessionDaysIndex } from '../../application/ports/session-days-index.port.js'
import type { Guid } from '../../domain/guid.js'
import { dayOf, type DayNumber, type ServingSessionRow, type ServingViewRow } from '../../domain/serving-links.js'
import { firstDayOf, type DaySummary, type SessionState } from '../../domain/session-states.js'
import type { InMemoryTables } from './in-memory-tables.js'

/**
 * Session states and day summaries in memory, over the serving rows of InMemoryTables: every
 * stored state is kept (as a MergeTree keeps rows until it merges them), reads take the highest
 * version, and the days a session was ever counted on are indexed as migration 0011's candidate
 * tables index them. Lookups go through per-developer indexes of the serving rows.
 */
export class InMemorySessionDays implements SessionDaysIndex {
  private readonly states = new Map<string, SessionState[]>()
  private readonly candidates = new Map<string, Set<Guid>>()
  private readonly spanningOn = new Map<string, Set<Guid>>()
  private readonly daySummaries = new Map<string, DaySummary>()
  private readonly viewsByKey = new Map<Guid, ServingViewRow[]>()
  private readonly sessionsByKey = new Map<string, ServingSessionRow[]>()
  private viewsIndexed = 0
  private sessionsIndexed = 0

  constructor(private readonly tables: InMemoryTables) {}

  async viewRows(views: readonly ViewKey[]): Promise<ServingViewRow[]> {
    const wanted = new Set(views.map((v) => `${v.developerId}|${v.viewId}`))
    return this.keyRows(views.map((v) => v.developerId)).filter((r) => wanted.has(`${r.keyDeveloperId}|${r.propertyObjectViewId}`))
  }

  async sessionViewRows(sessions: readonly SessionKey[]): Promise<ServingViewRow[]> {
    const wanted = new Set(sessions.map(sessionKey))
    const rows = this.keyRows(sessions.map((s) => s.developerId))
    const named = new Set(rows.filter((r) => wanted.has(sessionKey({ developerId: r.keyDeveloperId, sessionId: r.sessionId }))).map((r) => `${r.keyDeveloperId}|${r.propertyObjectViewId}`))
    return rows.filter((r) => named.has(`${r.keyDeveloperId}|${r.propertyObjectViewId}`))
  }

  async sessionFacts(sessions: readonly SessionKey[]): Promise<ServingSessionRow[]> {
    this.sync()
    return [...new Set(sessions.map(sessionKey))].flatMap((k) => this.sessionsByKey.get(k) ?? [])
  }

  async writeStates(states: readonly SessionState[]): Promise<void> {
    for (const s of states) {
      const key = sessionKey(s)
      push(this.states, key, s)
      const first = firstDayOf(s)
      if (first === undefined) continue
      add(this.candidates, dayKey({ developerId: s.developerId, day: first }), s.sessionId)
      if (s.viewDays.length > 1) add(this.spanningOn, dayKey({ developerId: s.developerId, day: first }), s.sessionId)
    }
  }

  async countedDays(sessions: readonly SessionKey[]): Promise<DeveloperDay[]> {
    return sessions.flatMap((k) => (this.states.get(sessionKey(k)) ?? []).flatMap((s) => {
      const day = firstDayOf(s)
      return day === undefined ? [] : [{ developerId: k.developerId, day }]
    }))
  }

  async dayCandidates(days: readonly DeveloperDay[]): Promise<DayCandidate[]> {
    return days.flatMap((d) => [...(this.candidates.get(dayKey(d)) ?? [])].map((sessionId) => ({ ...d, state: this.latest(d.developerId, sessionId) })))
  }

  async dayViewRows(days: readonly DeveloperDay[]): Promise<ServingViewRow[]> {
    const wanted = new Set(days.flatMap((d) => [d.day - 1, d.day, d.day + 1].map((day) => dayKey({ developerId: d.developerId, day }))))
    return this.keyRows(days.map((d) => d.developerId)).filter((r) => wanted.has(dayKey({ developerId: r.keyDeveloperId, day: dayOf(r.eventTime) })))
  }

  async writeSummaries(summaries: readonly DaySummary[]): Promise<void> {
    for (const s of summaries) {
      const key = dayKey(s)
      const kept = this.daySummaries.get(key)
      if (kept === undefined || s.version >= kept.version) this.daySummaries.set(key, s)
    }
  }

  async summaries(developerId: Guid, first: DayNumber, last: DayNumber): Promise<DaySummary[]> {
    return daysOf(first, last).flatMap((day) => this.daySummaries.get(dayKey({ developerId, day })) ?? [])
  }

  async spanning(developerId: Guid, first: DayNumber, last: DayNumber): Promise<SessionState[]> {
    const ids = new Set(daysOf(first, last).flatMap((day) => [...(this.spanningOn.get(dayKey({ developerId, day })) ?? [])]))
    return [...ids].map((id) => this.latest(developerId, id)).filter((s) => s.viewDays.length > 1)
  }

  private latest(developerId: Guid, sessionId: Guid): SessionState {
    const versions = this.states.get(sessionKey({ developerId, sessionId })) ?? []
    return versions.reduce((a, b) => (b.version > a.version ? b : a))
  }

  /** The serving view rows under these developers' keys. */
  private keyRows(developers: readonly Guid[]): ServingViewRow[] {
    this.sync()
    return [...new Set(developers)].flatMap((d) => this.viewsByKey.get(d) ?? [])
  }

  /** Indexes the serving rows appended since the last lookup (the serving tables only grow). */
  private sync(): void {
    const { views, sessions } = this.tables.serving
    for (; this.viewsIndexed < views.length; this.viewsIndexed++) {
      const r = views[this.viewsIndexed] as ServingViewRow
      push(this.viewsByKey, r.keyDeveloperId, r)
    }
    for (; this.sessionsIndexed < sessions.length; this.sessionsIndexed++) {
      const r = sessions[this.sessionsIndexed] as ServingSessionRow
      push(this.sessionsByKey, sessionKey({ developerId: r.keyDeveloperId, sessionId: r.sessionId }), r)
    }
  }
}

const sessionKey = (k: SessionKey) => `${k.developerId}|${k.sessionId}`
const dayKey = (k: DeveloperDay) => `${k.developerId}|${k.day}`
const daysOf = (first: DayNumber, last: DayNumber): DayNumber[] => Array.from({ length: Math.max(0, last - first + 1) }, (_, i) => first + i)

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
