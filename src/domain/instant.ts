import * as t from 'io-ts'

/** A point in time as epoch milliseconds, always UTC. */
export type Instant = number

const digit = (s: string, i: number): number => {
  const d = s.charCodeAt(i) - 48
  return d >= 0 && d <= 9 ? d : NaN
}
const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1)

/**
 * Parses the ISO-8601 text a .NET DateTimeOffset serialises to (up to 7 fractional digits,
 * an offset or Z): `YYYY-MM-DD[T ]hh:mm:ss[.fraction][Z|±hh[:]mm]`. Text without an offset is
 * taken as UTC, which is what .NET's `default(DateTimeOffset)` ("0001-01-01T00:00:00+00:00") and
 * plain DateTime values mean here. Read by char codes: it runs several times per event.
 */
export const parseInstant = (text: string): Instant | undefined => {
  const n = text.length
  if (n < 19) return undefined
  const sep = text.charCodeAt(10)
  if (text.charCodeAt(4) !== 45 || text.charCodeAt(7) !== 45 || (sep !== 84 && sep !== 32)) return undefined // - - T|space
  if (text.charCodeAt(13) !== 58 || text.charCodeAt(16) !== 58) return undefined // : :
  const year = two(text, 0) * 100 + two(text, 2)
  const month = two(text, 5)
  const day = two(text, 8)
  const hour = two(text, 11)
  const minute = two(text, 14)
  const second = two(text, 17)
  // NaN (a non-digit) fails every comparison below, so it is rejected here.
  if (!(year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31 && hour <= 23 && minute <= 59 && second <= 59)) return undefined
  let i = 19
  // Milliseconds are the first three fraction digits (truncated, as the platform's parser does).
  let ms = 0
  const dot = text.charCodeAt(i)
  if (dot === 46 || dot === 44) {
    const from = ++i
    while (i < n && digit(text, i) >= 0) i++
    if (i === from) return undefined
    for (let k = 0; k < 3; k++) ms = ms * 10 + (from + k < i ? digit(text, from + k) : 0)
  }
  const offset = offsetMinutes(text, i)
  if (offset === undefined || day > daysIn(year, month)) return undefined
  return daysFromCivil(year, month, day) * 86_400_000 + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms
}

/**
 * Days from 1970-01-01 to a date of the proleptic Gregorian calendar (H. Hinnant's days_from_civil),
 * as Date.UTC counts them, without its mapping of years 0-99 to 1900-1999.
 */
const daysFromCivil = (year: number, month: number, day: number): number => {
  const y = month <= 2 ? year - 1 : year
  const era = Math.floor(y / 400)
  const yoe = y - era * 400
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy
  return era * 146_097 + doe - 719_468
}

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31

/** The zone from position `i` to the end: nothing or Z is UTC, else ±hh[:]mm; undefined if malformed. */
const offsetMinutes = (text: string, i: number): number | undefined => {
  const n = text.length
  if (i === n) return 0
  const c = text.charCodeAt(i)
  if (c === 90) return i + 1 === n ? 0 : undefined // Z
  if (c !== 43 && c !== 45) return undefined // + -
  const colon = text.charCodeAt(i + 3) === 58 ? 1 : 0
  if (n !== i + 5 + colon) return undefined
  const minutes = two(text, i + 1) * 60 + two(text, i + 3 + colon)
  if (Number.isNaN(minutes)) return undefined
  return c === 45 ? -minutes : minutes
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
