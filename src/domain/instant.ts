import * as t from 'io-ts'

/** A point in time as epoch milliseconds, always UTC. */
export type Instant = number

const ISO_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:[.,](\d+))?(Z|[+-]\d{2}:?\d{2})?$/

/**
 * Parses the ISO-8601 text a .NET DateTimeOffset serialises to (up to 7 fractional digits,
 * an offset or Z). Text without an offset is taken as UTC, which is what .NET's
 * `default(DateTimeOffset)` ("0001-01-01T00:00:00+00:00") and plain DateTime values mean here.
 */
export const parseInstant = (text: string): Instant | undefined => {
  const m = ISO_PATTERN.exec(text)
  if (!m) return undefined
  const [, y, mo, d, h, mi, s, frac, zone] = m
  const year = Number(y)
  const month = Number(mo)
  const day = Number(d)
  const hour = Number(h)
  const minute = Number(mi)
  const second = Number(s)
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return undefined
  if (day > daysIn(year, month)) return undefined
  // Milliseconds are the first three fraction digits (truncated, as the platform's parser does).
  const ms = frac ? Number(frac.length >= 3 ? frac.slice(0, 3) : frac.padEnd(3, '0')) : 0
  // Date.UTC maps years 0-99 to 1900-1999; shift such years by 400 (one Gregorian cycle) and back.
  const small = year < 100
  const utc = Date.UTC(small ? year + 400 : year, month - 1, day, hour, minute, second, ms) - (small ? CYCLE_400_MS : 0)
  return utc - offsetMinutes(zone) * 60_000
}

const CYCLE_400_MS = 146_097 * 86_400_000

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

const offsetMinutes = (zone: string | undefined): number => {
  if (zone === undefined || zone === 'Z') return 0
  const sign = zone.startsWith('-') ? -1 : 1
  const digits = zone.slice(1).replace(':', '')
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)))
}

export const InstantCodec = new t.Type<Instant, string, unknown>(
  'DateTimeOffset',
  (u): u is Instant => typeof u === 'number' && Number.isFinite(u),
  (u, c) => {
    const parsed = typeof u === 'string' ? parseInstant(u) : undefined
    return parsed === undefined ? t.failure(u, c, 'expected an ISO-8601 date-time') : t.success(parsed)
  },
  (i) => new Date(i).toISOString(),
)

/** .NET `default(DateTimeOffset)`: 0001-01-01T00:00:00Z. */
export const DOTNET_DEFAULT_INSTANT: Instant = parseInstant('0001-01-01T00:00:00Z') as Instant

export const HOUR_MS = 3_600_000

/** Calendar day of an instant in UTC, as YYYY-MM-DD. */
export const utcDate = (i: Instant): string => new Date(i).toISOString().slice(0, 10)
