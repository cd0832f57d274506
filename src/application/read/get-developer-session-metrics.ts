import * as E from 'fp-ts/lib/Either.js'
import type { Period, ReadModel, SessionTotals, ViewTotals } from '../ports/read-model.port.js'
import { accessDenied, type AccessDenied, type DeveloperActor } from './actor.js'

export interface SessionMetrics extends SessionTotals {
  readonly avgDurationSeconds: number
  /** The views behind those sessions, open and closed facts of a view counted as one. */
  readonly views: ViewTotals
}

/** Sessions that viewed the actor's property objects in the period; nothing without an actor. */
export const getDeveloperSessionMetrics =
  (readModel: ReadModel) =>
  async (actor: DeveloperActor | null | undefined, period: Period): Promise<E.Either<AccessDenied, SessionMetrics>> => {
    if (!actor?.developerId) return E.left(accessDenied)
    const { sessions: totals, views } = await readModel.sessionMetrics(actor.developerId, period)
    const avg = totals.sessions === 0 ? 0 : Math.round((totals.totalDurationSeconds / totals.sessions) * 100) / 100
    return E.right({ ...totals, avgDurationSeconds: avg, views })
  }
