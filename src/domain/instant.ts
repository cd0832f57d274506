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
  const date = new Date(0)
  // setUTCFullYear, unlike Date.UTC, keeps years 0-99 as they are (year 1 is .NET's default).
  date.setUTCFullYear(year, month - 1, day)
  if (date.getUTCMonth() !== month - 1) return undefined
  date.setUTCHours(hour, minute, second, frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0)
  return date.getTime() - offsetMinutes(zone) * 60_000
}

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
