import type { ServingSessionRow, ServingViewRow } from '../../domain/serving-links.js'
import type { SessionDaysIndex } from '../ports/session-days-index.port.js'
import { keepSessionDaysCurrent } from './session-days-step.js'

interface Waiting {
  readonly views: ServingViewRow[]
  readonly sessions: ServingSessionRow[]
  readonly callers: { readonly resolve: () => void; readonly reject: (e: unknown) => void }[]
}

/**
 * One session-days step at a time per process (session-days-step.ts), over everything the batches
 * handed in while the one before ran: a step's lookups, inserts and day summaries cost about the
 * same for one batch as for the several that the consumers of a process store meanwhile, and a
 * developer-day they all touch is summarized once. Each caller waits for the step that covers its
 * rows, so its batch's offsets still follow its summaries; a failed step fails every caller in it
 * (each batch is retried and joins a later one). Correct for any grouping: a step recomputes from
 * what is stored, and every caller's serving rows were stored before it handed them in.
 */
export class CoalescedSessionDaysStep {
  private waiting: Waiting | undefined
  private running = false

  constructor(private readonly index: SessionDaysIndex) {}

  keep(views: readonly ServingViewRow[], sessions: readonly ServingSessionRow[]): Promise<void> {
    if (views.length === 0 && sessions.length === 0) return Promise.resolve()
    return new Promise<void>((resolve, reject) => {
      const w = (this.waiting ??= { views: [], sessions: [], callers: [] })
      for (const v of views) w.views.push(v)
      for (const s of sessions) w.sessions.push(s)
      w.callers.push({ resolve, reject })
      this.next()
    })
  }

  private next(): void {
    const w = this.waiting
    if (this.running || w === undefined) return
    this.waiting = undefined
    this.running = true
    keepSessionDaysCurrent(this.index, w.views, w.sessions)
      .then(
        () => w.callers.forEach((c) => c.resolve()),
        (e: unknown) => w.callers.forEach((c) => c.reject(e)),
      )
      .finally(() => {
        this.running = false
        this.next()
      })
  }
}
