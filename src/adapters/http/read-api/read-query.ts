import * as E from 'fp-ts/lib/Either.js'
import type { DateRange, HierarchyFilter, Period } from '../../../application/ports/read-model.port.js'
import { asGuid } from '../../../domain/guid.js'
import type { ParameterError } from './problem.js'

export const MAX_RANGE_DAYS = 366
const DAY_MS = 86_400_000
// What ClickHouse's Date and DateTime hold without wrapping (both end in 2106).
const FIRST_YEAR = 1970
const LAST_YEAR = 2099
export const FIRST_DAY = `${FIRST_YEAR}-01-01`
export const LAST_DAY = `${LAST_YEAR}-12-31`

/** Whole decades from `first` to `last` as a regex alternation, e.g. 1970–2099 → 19[7-9][0-9]|20[0-9][0-9]. */
const yearsPattern = (first: number, last: number): string => {
  const byCentury = new Map<number, number[]>()
  for (let decade = Math.floor(first / 10); decade <= Math.floor(last / 10); decade++) {
    const century = Math.floor(decade / 10)
    byCentury.set(century, [...(byCentury.get(century) ?? []), decade % 10])
  }
  return [...byCentury].map(([century, d]) => `${century}[${d[0]}-${d.at(-1)}][0-9]`).join('|')
}

/**
 * The days the API takes, as a pattern the OpenAPI document carries (so a client generating from
 * it stays inside): YYYY-MM-DD in FIRST_YEAR..LAST_YEAR. Whether the day exists is checked here.
 */
export const DAY_PATTERN = `^(${yearsPattern(FIRST_YEAR, LAST_YEAR)})-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])$`

/** Days since 1970-01-01 of a real calendar day written YYYY-MM-DD, undefined for anything else. */
const dayNumber = (text: string): number | undefined => {
  if (!/^[0-9]{4}-[0-9]{2}-[0-9]{2}$/.test(text)) return undefined
  const ms = Date.parse(`${text}T00:00:00Z`)
  return Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text ? undefined : ms / DAY_MS
}

export interface ReadPeriod {
  /** The inclusive days, for the funnel (funnel_daily has one row per day). */
  readonly range: DateRange
  /** The same days as the half-open instant interval [from 00:00Z, day after `to` 00:00Z), for sessions. */
  readonly period: Period
}

/** `from`/`to` as asked: real days in 1970–2099, from ≤ to, at most `maxDays` days counting both ends. */
export const readPeriod = (q: { readonly from: string; readonly to: string }, maxDays = MAX_RANGE_DAYS): E.Either<ParameterError[], ReadPeriod> => {
  const errors: ParameterError[] = []
  const day = (parameter: 'from' | 'to'): number | undefined => {
    const n = dayNumber(q[parameter])
    if (n === undefined) errors.push({ parameter, detail: 'must be a calendar day YYYY-MM-DD' })
    else if (q[parameter] < FIRST_DAY || q[parameter] > LAST_DAY) errors.push({ parameter, detail: `must be between ${FIRST_DAY} and ${LAST_DAY}` })
    else return n
    return undefined
  }
  const from = day('from')
  const to = day('to')
  if (from === undefined || to === undefined) return E.left(errors)
  if (from > to) return E.left([{ parameter: 'to', detail: 'must not be before from' }])
  if (to - from + 1 > maxDays) return E.left([{ parameter: 'to', detail: `must be at most ${maxDays} days from from, both included` }])
  return E.right({ range: { fromDate: q.from, toDate: q.to }, period: { from: from * DAY_MS, to: (to + 1) * DAY_MS } })
}

export const FILTER_PARAMETERS = ['projectId', 'buildingId', 'layoutGroupId', 'layoutId'] as const
type FilterParameter = (typeof FILTER_PARAMETERS)[number]

/** The funnel's hierarchy filters: each given one must be a GUID (any case, kept lower-case). */
export const hierarchyFilter = (q: Readonly<Partial<Record<FilterParameter, string>>>): E.Either<ParameterError[], HierarchyFilter> => {
  const errors: ParameterError[] = []
  const filter: { -readonly [K in FilterParameter]?: HierarchyFilter[K] } = {}
  for (const parameter of FILTER_PARAMETERS) {
    const raw = q[parameter]
    if (raw === undefined) continue
    const id = asGuid(raw)
    if (id === undefined) errors.push({ parameter, detail: 'must be a GUID' })
    else filter[parameter] = id
  }
  return errors.length > 0 ? E.left(errors) : E.right(filter)
}
