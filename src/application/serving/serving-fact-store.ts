import { developerWrites } from '../../domain/developer-writes.js'
import type { FactRow } from '../../domain/fact-row.js'
import { EMPTY_GUID, type Guid } from '../../domain/guid.js'
import type { Instant } from '../../domain/instant.js'
import { sessionCopies, sessionCopiesForViews, viewCopies, type SessionWithDays } from '../../domain/serving-copies.js'
import { dayOf, sessionCopyDays, sessionReachDays, storedTime, viewNeighbourDays, type DayNumber, type ServingSessionRow, type ServingViewRow, type ViewLink } from '../../domain/serving-links.js'
import type { FactStore } from '../ports/fact-store.port.js'
import { StoreError } from '../ports/store-error.js'
import type { ServingIndex } from '../ports/serving-index.port.js'
import type { StoreTrace } from '../ports/tracer.port.js'

const SERVING_STEP = 'SERVING_STEP'

/**
 * A FactStore that keeps the developer-keyed serving tables current: the facts first, then the
 * lookups and the serving rows, all before `append` returns, so before the batch's offsets are
 * committed. A crash in between redelivers the batch, whose facts collapse and whose lookups run
 * again. Then, their inserts returned, the per-developer, per-day write counts in one insert
 * (ServingIndex.written): the day records are stamped with them and the read cache versions
 * answers by their sums, so neither is ever newer than the data. A failure of the serving step is
 * classified as the fact insert's: a store error the
 * store calls transient is retried with the batch; one it calls the rows' fault (a serving row it
 * refuses) is thrown as not retriable, code `SERVING_STEP/<store code>`, so the engine isolates the
 * record and dead-letters it as store-rejected instead of pausing the consumer for good. Anything
 * outside the port's contract is treated as transient, as everywhere else.
 */
export class ServingFactStore implements FactStore {
  constructor(
    readonly facts: FactStore,
    readonly serving: ServingIndex,
  ) {}

  async append(rows: readonly FactRow[], ingestionTime: Instant, trace?: StoreTrace): Promise<void> {
    await this.facts.append(rows, ingestionTime, trace)
    try {
      const { views, sessions } = await keepServingCurrent(this.serving, rows, ingestionTime)
      const funnel = rows.flatMap((f) => (f.table === 'funnel_daily' ? [f.row.developerId] : []))
      const writes = developerWrites({ views, sessions: sessionRowDays(rows, sessions, ingestionTime), funnel })
      if (writes.length > 0) await this.serving.written(writes)
    } catch (e) {
      if (e instanceof StoreError) throw e.retriable ? e : new StoreError(e.message, false, `${SERVING_STEP}/${e.code}`, { cause: e })
      throw new StoreError(`serving tables not updated: ${e instanceof Error ? e.message : String(e)}`, true, SERVING_STEP, { cause: e })
    }
  }
}

/**
 * The days the day records count each written session row on (domain/day-records.ts): a copy of a
 * batch's own fact on every day it reaches (sessionReachDays), where its views stored before it
 * lie; a copy made for a view of a fact stored before on the days from its session's start to now
 * (sessionCopyDays): the developer's other views of the session, whose days' records read it too.
 */
const sessionRowDays = (rows: readonly FactRow[], sessions: readonly ServingSessionRow[], ingestionTime: Instant) => {
  const spans = new Map<string, DayNumber[]>()
  for (const f of rows) if (f.table === 'session_facts') spans.set(`${f.row.sessionId}|${f.row.factId}`, sessionReachDays(f.row.startedAt, f.row.lastActivityAt, ingestionTime))
  return sessions.map((r) => ({ keyDeveloperId: r.keyDeveloperId, days: spans.get(`${r.sessionId}|${r.factId}`) ?? sessionCopyDays(r.eventTime, ingestionTime) }))
}

/** Looks up and writes the batch's serving rows; returns the rows written. */
export const keepServingCurrent = async (
  serving: ServingIndex,
  rows: readonly FactRow[],
  ingestionTime: Instant,
): Promise<{ views: readonly ServingViewRow[]; sessions: readonly ServingSessionRow[] }> => {
  const at = storedTime(ingestionTime)
  const sessions: SessionWithDays[] = []
  const sessionDaysSeen = new Set<DayNumber>()
  const views: ViewLink[] = []
  for (const f of rows) {
    if (f.table === 'session_facts') {
      const { sessionId, factId, durationSeconds, viewerKind, eventTime, startedAt, lastActivityAt } = f.row
      const days = sessionReachDays(startedAt, lastActivityAt, ingestionTime)
      for (const d of days) sessionDaysSeen.add(d)
      sessions.push({ sessionId, factId, durationSeconds, viewerKind, eventTime, ingestionTime: at, days })
    } else if (f.table === 'property_object_view_facts') {
      const { propertyObjectViewId, factId, developerId, sessionId, isClosed, durationSeconds, eventTime } = f.row
      views.push({ propertyObjectViewId, factId, developerId, sessionId, isClosed, durationSeconds: durationSeconds ?? 0, eventTime, ingestionTime: at })
    }
  }
  const viewRows: ServingViewRow[] = []
  const sessionRows: ServingSessionRow[] = []
  if (sessions.length > 0) {
    const links = await serving.sessionDevelopers([...sessionDaysSeen], distinct(sessions.map((s) => s.sessionId)))
    if (links.length > 0) sessionRows.push(...sessionCopies(sessions, links))
  }
  if (views.length > 0) {
    // an open view without a SessionId has the empty one, which no session fact carries
    const sessionIds = distinct(views.map((v) => v.sessionId).filter((id) => id !== EMPTY_GUID))
    const [otherRows, sessionFacts] = await Promise.all([
      serving.viewLinks(distinct(views.flatMap((v) => viewNeighbourDays(v.eventTime))), distinct(views.map((v) => v.propertyObjectViewId))),
      serving.sessionLinks(distinct(views.map((v) => dayOf(v.eventTime))), sessionIds),
    ])
    viewRows.push(...viewCopies(views, otherRows))
    sessionRows.push(...sessionCopiesForViews(views, sessionFacts))
  }
  if (viewRows.length > 0 || sessionRows.length > 0) await serving.write(viewRows, sessionRows)
  return { views: viewRows, sessions: sessionRows }
}

const distinct = <T extends DayNumber | Guid>(items: readonly T[]): T[] => [...new Set(items)]
