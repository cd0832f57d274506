import type { Instant } from '../../domain/instant.js'

/** DateTime('UTC') text both 18.16 and a current ClickHouse parse without best_effort. */
export const isoDateTimeText = (i: Instant): string => new Date(i).toISOString().slice(0, 19).replace('T', ' ')

const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => (n < 10 ? `0${n}` : String(n)))
export const DAY_SECONDS = 86_400
/** Year 10000: beyond it (and before 1970) the ISO path spells the text, as it always did. */
const FAST_RANGE_END = 253_402_300_800_000
/** Whether dateTimeText spells `i` from the cached date and the time of day's digits. */
export const inFastRange = (i: Instant): boolean => i >= 0 && i < FAST_RANGE_END
const MAX_CACHED_DAYS = 4096
const dayTexts = new Map<number, string>()

/** "YYYY-MM-DD " of a day since 1970 (cached): the date part of dateTimeText's fast path. */
export const dayText = (day: number): string => {
  let text = dayTexts.get(day)
  if (text === undefined) {
    if (dayTexts.size >= MAX_CACHED_DAYS) dayTexts.clear()
    text = isoDateTimeText(day * DAY_SECONDS * 1000).slice(0, 11)
    dayTexts.set(day, text)
  }
  return text
}

/**
 * The same text as the ISO path, three per row on the insert path: the date part is cached per
 * day and the time of day is built from two-digit strings (no Date, no intermediate strings).
 */
export const dateTimeText = (i: Instant): string => {
  if (!inFastRange(i)) return isoDateTimeText(i)
  const seconds = Math.floor(i / 1000)
  const day = Math.floor(seconds / DAY_SECONDS)
  const s = seconds - day * DAY_SECONDS
  return `${dayText(day)}${TWO_DIGITS[Math.floor(s / 3600)]}:${TWO_DIGITS[Math.floor(s / 60) % 60]}:${TWO_DIGITS[s % 60]}`
}
