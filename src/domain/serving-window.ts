import type { FactRow } from './fact-row.js'
import type { Instant } from './instant.js'
import { SESSION_LINK_MAX_DAYS, sessionSpan, type DayNumber } from './serving-links.js'

/**
 * The window the serving tables' link rows cover, and the facts outside what the serving rules
 * assume of the producers (serving-links.ts), whose answers may then differ from the raw facts.
 *
 * The lateness the product accepts: a session or view fact whose EventTime is at most this many
 * days before it is ingested. Such a fact looks up link rows on its own days (a view: its day and
 * the neighbours; a session: every day of its span, up to SESSION_LINK_MAX_DAYS from its start),
 * so link rows must stay `lateness + SESSION_LINK_MAX_DAYS + 1` days; older ones are dropped.
 */
export const DEFAULT_SERVING_LATENESS_DAYS = 30

const DAY_MS = 86_400_000

export const linkRetentionDays = (latenessDays: number): number => latenessDays + SESSION_LINK_MAX_DAYS + 1

/** The first UTC day whose link rows are kept on `today`. */
export const firstLinkDayKept = (today: DayNumber, latenessDays: number): DayNumber => today - linkRetentionDays(latenessDays)

const monthPartition = /^(\d{4})(\d{2})$/

/**
 * The link tables' monthly partitions (`toYYYYMM(Day)`, e.g. `202601`) whose every day is before
 * the first kept day: those a TTL of the window would have emptied. Other names are left alone.
 */
export const partitionsBefore = (partitions: readonly string[], firstKept: DayNumber): string[] =>
  partitions.filter((p) => {
    const m = monthPartition.exec(p)
    if (!m) return false
    const nextMonthStart = Date.UTC(Number(m[1]), Number(m[2]), 1) / DAY_MS
    return nextMonthStart <= firstKept
  })

/** Why a fact is outside the producers' assumptions the serving rows rest on, told from the fact alone. */
export type AssumptionBreach = 'late' | 'long-session'

export const ASSUMPTION_BREACHES: readonly AssumptionBreach[] = ['late', 'long-session']

/**
 * Told only with both facts at hand (the reconciliation does, over its days): a view whose
 * session fact is stored but not linked on the view's day (outside the session's span ± 1 h, or
 * past its 32nd day), and a view with another row more than a day from its own day.
 */
export type PairBreach = 'view-outside-session' | 'view-rows-apart'

export const PAIR_BREACHES: readonly PairBreach[] = ['view-outside-session', 'view-rows-apart']

/**
 * A fact the serving rows may answer differently from the raw facts for, seen on the fact alone:
 * a session or view fact ingested more than the accepted lateness after its EventTime (its link
 * rows may be gone), or a session spanning more days than it is linked under. Views outside their
 * session's span and a view's rows more than a day apart need both facts and are not told here.
 */
export const assumptionBreach = (fact: FactRow, ingestionTime: Instant, latenessDays: number): AssumptionBreach | undefined => {
  if (fact.table !== 'session_facts' && fact.table !== 'property_object_view_facts') return undefined
  if (ingestionTime - fact.row.eventTime > latenessDays * DAY_MS) return 'late'
  if (fact.table === 'session_facts' && sessionSpan(fact.row.startedAt, fact.row.lastActivityAt).days > SESSION_LINK_MAX_DAYS) return 'long-session'
  return undefined
}
