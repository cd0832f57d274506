import { StoreError } from '../../application/ports/store-error.js'

/**
 * ClickHouse server codes that reject the rows themselves: the same rows fail the same way on
 * every retry, so the engine isolates and dead-letters them (`store-rejected`). Checked on 18.16:
 * a negative UInt (72), a text where a number or UUID belongs (27), a bad DateTime (41).
 * Every other server code (too many parts, memory, a missing table or column, syntax, auth) is
 * not the rows' fault: the batch is retried until the server or its schema recovers.
 */
const ROW_REJECTING_CODES: ReadonlySet<number> = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA
  131, // TOO_LARGE_STRING_SIZE
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  349, // CANNOT_INSERT_NULL_IN_ORDINARY_COLUMN
  376, // CANNOT_PARSE_UUID
  377, // ILLEGAL_SYNTAX_FOR_DATA_TYPE
  407, // DECIMAL_OVERFLOW
  441, // CANNOT_PARSE_DOMAIN_VALUE_FROM_STRING
  469, // VIOLATED_CONSTRAINT
  691, // UNKNOWN_ELEMENT_OF_ENUM
])

/** The server code: a numeric `code` (HTTP client) or "Code: N" in the text (18.16 and chdb send it there). */
const serverCode = (e: Error): number | undefined => {
  const code: unknown = 'code' in e ? e.code : undefined
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code)
  if (typeof code === 'number') return code
  const m = /\bCode: (\d+)\b/.exec(e.message)
  return m ? Number(m[1]) : undefined
}

/**
 * 252 is also "Too many partitions for single INSERT block (more than 100)": the batch spans too
 * many months, and no wait fixes that, but smaller inserts do. Non-retriable, so the engine splits
 * the batch; a single record is one partition and always fits, so nothing is dead-lettered.
 */
const TOO_MANY_PARTITIONS_IN_BLOCK = /too many partitions for single insert block/i

const errnoOf = (e: Error): string | undefined => ('code' in e && typeof e.code === 'string' ? e.code : undefined)

/** Pure: classifies any thrown value into a StoreError that says whether to retry the batch. */
export const toStoreError = (error: unknown): StoreError => {
  if (error instanceof StoreError) return error
  const e = error instanceof Error ? error : new Error(String(error))
  const code = serverCode(e)
  if (code !== undefined) {
    const refused = ROW_REJECTING_CODES.has(code) || TOO_MANY_PARTITIONS_IN_BLOCK.test(e.message)
    return new StoreError(`ClickHouse error ${code}: ${e.message}`, !refused, `CLICKHOUSE_${code}`, { cause: error })
  }
  // Bugs in our own code on some row (a mapper throwing) are not fixed by waiting either.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return new StoreError(e.message, false, 'BUG', { cause: error })
  // Transport failures (ECONNREFUSED, socket hang up, 5xx without a body) and anything unknown:
  // retrying is safe, and dead-lettering good rows for an unexplained error is not.
  return new StoreError(e.message, true, errnoOf(e) ?? 'TRANSPORT', { cause: error })
}
