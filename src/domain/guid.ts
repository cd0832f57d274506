import * as t from 'io-ts'

export interface GuidBrand {
  readonly Guid: unique symbol
}

/** A UUID in canonical lower-case form; .NET writes upper or lower case, ClickHouse returns lower. */
export type Guid = t.Branded<string, GuidBrand>

export const EMPTY_GUID = '00000000-0000-0000-0000-000000000000' as Guid

const NOT_UUID = -1
const LOWER = 0
const HAS_UPPER = 1

/** Char code → 1 for 0-9 and a-f, 2 for A-F, 0 for anything else (codes past 127 included). */
const HEX_CLASS = new Uint8Array(128)
for (let c = 48; c <= 57; c++) HEX_CLASS[c] = 1
for (let c = 97; c <= 102; c++) HEX_CLASS[c] = 1
for (let c = 65; c <= 70; c++) HEX_CLASS[c] = 2

/** Ored classes of the hex digits s[from, to); 0 when one of them is not a hex digit. */
const hexRun = (s: string, from: number, to: number): number => {
  let seen = 0
  for (let i = from; i < to; i++) {
    const cls = HEX_CLASS[s.charCodeAt(i)] ?? 0
    if (cls === 0) return 0
    seen |= cls
  }
  return seen
}

/**
 * 8-4-4-4-12 hex digits; whether an upper-case digit occurs. A char-code scan: on the hot path of
 * every event, a regular expression plus toLowerCase cost more than the rest of the id's decoding.
 */
const scanUuid = (s: string): number => {
  if (s.length !== 36 || s.charCodeAt(8) !== 45 || s.charCodeAt(13) !== 45 || s.charCodeAt(18) !== 45 || s.charCodeAt(23) !== 45) return NOT_UUID
  const a = hexRun(s, 0, 8)
  const b = hexRun(s, 9, 13)
  const c = hexRun(s, 14, 18)
  const d = hexRun(s, 19, 23)
  const e = hexRun(s, 24, 36)
  if (a === 0 || b === 0 || c === 0 || d === 0 || e === 0) return NOT_UUID
  return (a | b | c | d | e) & 2 ? HAS_UPPER : LOWER
}

export const isGuid = (value: unknown): value is Guid => typeof value === 'string' && scanUuid(value) !== NOT_UUID

/** The lower-case Guid of any-case UUID text, undefined for anything else. */
export const asGuid = (value: unknown): Guid | undefined => {
  if (typeof value !== 'string') return undefined
  const scan = scanUuid(value)
  return scan === NOT_UUID ? undefined : ((scan === HAS_UPPER ? value.toLowerCase() : value) as Guid)
}

/** Accepts any-case UUID text and normalises it to lower case. */
export const GuidCodec = new t.Type<Guid, string, unknown>(
  'Guid',
  (u): u is Guid => typeof u === 'string' && scanUuid(u) === LOWER,
  (u, c) => {
    const g = asGuid(u)
    return g === undefined ? t.failure(u, c, 'expected a UUID') : t.success(g)
  },
  (g) => g,
)

export const isEmptyGuid = (g: Guid): boolean => g === EMPTY_GUID
