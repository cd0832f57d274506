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

/**
 * 8-4-4-4-12 hex digits; whether an upper-case digit occurs. A char-code scan: on the hot path of
 * every event, a regular expression plus toLowerCase cost more than the rest of the id's decoding.
 */
const scanUuid = (s: string): number => {
  if (s.length !== 36) return NOT_UUID
  let upper = LOWER
  for (let i = 0; i < 36; i++) {
    const c = s.charCodeAt(i)
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (c !== 45) return NOT_UUID // '-'
    } else if ((c >= 48 && c <= 57) || (c >= 97 && c <= 102)) {
      // 0-9, a-f
    } else if (c >= 65 && c <= 70) upper = HAS_UPPER // A-F
    else return NOT_UUID
  }
  return upper
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
