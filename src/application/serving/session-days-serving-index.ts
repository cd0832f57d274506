import type { Guid } from '../../domain/guid.js'
import type { DeveloperWrite } from '../../domain/developer-writes.js'
import type { DayNumber, ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { ServingIndex } from '../ports/serving-index.port.js'
import type { SessionDaysIndex } from '../ports/session-days-index.port.js'
import { CoalescedSessionDaysStep } from './coalesced-session-days-step.js'

/**
 * A ServingIndex whose writes also keep the session states and day summaries of what they wrote
 * current (session-days-step.ts, one step at a time over what the writes meanwhile stored:
 * coalesced-session-days-step.ts), before they return: given to the serving step and the
 * reconciliation in place of the ServingIndex, the write counts raised after a write (`written`)
 * never precede the summaries, and a batch's offsets are committed after both. Composed when
 * DEV_STATS_SESSION_DAY_SUMMARIES is on (docs/clickhouse.md, Day summaries: its cost).
 */
export class SessionDaysServingIndex implements ServingIndex {
  private readonly step: CoalescedSessionDaysStep

  constructor(
    private readonly serving: ServingIndex,
    sessionDays: SessionDaysIndex,
  ) {
    this.step = new CoalescedSessionDaysStep(sessionDays)
  }

  viewLinks(days: readonly DayNumber[], viewIds: readonly Guid[]) {
    return this.serving.viewLinks(days, viewIds)
  }

  sessionDevelopers(days: readonly DayNumber[], sessionIds: readonly Guid[]) {
    return this.serving.sessionDevelopers(days, sessionIds)
  }

  sessionLinks(days: readonly DayNumber[], sessionIds: readonly Guid[]) {
    return this.serving.sessionLinks(days, sessionIds)
  }

  async write(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> {
    await this.serving.write(views, sessions)
    await this.step.keep(views, sessions)
  }

  written(writes: readonly DeveloperWrite[]): Promise<void> {
    return this.serving.written(writes)
  }
}
