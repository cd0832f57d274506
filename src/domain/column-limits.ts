import * as E from 'fp-ts/lib/Either.js'
import { isGuid } from './guid.js'
import { poison, type Poison } from './poison.js'

/**
 * The ranges of the ClickHouse column types our rows use, valid on both servers we run on
 * (18.16 and a current ClickHouse), measured by inserting and reading back:
 * - DateTime: 18.16 parses text only up to 2105-12-31 23:59:59 (later text is stored as 0, a
 *   current server clamps to 2106-02-07 06:28:15); before 1970 both store 0 or wrap. Epoch 0
 *   itself is 18.16's "zero date" (read back as 0000-00-00 00:00:00), so the first second is
 *   excluded too. Sub-second parts are dropped by the column (whole seconds), which is no change
 *   of the second stored.
 * - Date: 18.16 stores text after 2105-12-31 as 0 (a current server allows up to 2149-06-06);
 *   1970-01-01 is 18.16's zero date.
 * - UInt64: JSON numbers beyond 2^53 - 1 are not exact in JavaScript, so that is our bound.
 */
export const COLUMN_LIMITS = {
  DateTime: { min: Date.UTC(1970, 0, 1, 0, 0, 1), max: Date.UTC(2105, 11, 31, 23, 59, 59, 999) },
  Date: { min: Date.UTC(1970, 0, 2), max: Date.UTC(2105, 11, 31, 23, 59, 59, 999) },
  UInt32: { min: 0, max: 4_294_967_295 },
  UInt64: { min: 0, max: Number.MAX_SAFE_INTEGER },
} as const

/** DateTime and Date values are instants (epoch ms); a Date column holds the instant's UTC day. */
export type NumericColumnType = keyof typeof COLUMN_LIMITS
export type ColumnType = NumericColumnType | 'UUID'

export type ColumnValue =
  | { readonly column: string; readonly type: NumericColumnType; readonly value: number | null }
  | { readonly column: string; readonly type: 'UUID'; readonly value: string | null }

/** Whether a number fits a numeric column (null fits: the column is Nullable or the field absent). */
export const fitsColumn = (type: NumericColumnType, value: number | null): boolean => {
  if (value === null) return true
  const { min, max } = COLUMN_LIMITS[type]
  return Number.isInteger(value) && value >= min && value <= max
}

const inRange = (c: ColumnValue): boolean => {
  if (c.value === null) return true
  return c.type === 'UUID' ? isGuid(c.value) : fitsColumn(c.type, c.value)
}

/** The first value outside its column's range is poison `out-of-range`; nothing is clamped. */
export const checkColumns = (values: readonly ColumnValue[]): E.Either<Poison, void> => {
  const bad = values.find((c) => !inRange(c))
  return bad === undefined
    ? E.right(undefined)
    : E.left(poison('out-of-range', `${bad.column} is outside the range of ClickHouse ${bad.type}`))
}

export const dateTime = (column: string, value: number | null): ColumnValue => ({ column, type: 'DateTime', value })
export const date = (column: string, value: number | null): ColumnValue => ({ column, type: 'Date', value })
export const uint32 = (column: string, value: number | null): ColumnValue => ({ column, type: 'UInt32', value })
export const uint64 = (column: string, value: number | null): ColumnValue => ({ column, type: 'UInt64', value })
