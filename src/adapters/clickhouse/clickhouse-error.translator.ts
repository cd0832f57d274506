import { StoreError } from '../../application/ports/store-error.js'

/**
 * ClickHouse server codes worth retrying: the same batch may succeed once the server recovers.
 * Everything else with a server code (syntax, unknown table/column, type or parse errors) will
 * fail again the same way.
 */
const RETRIABLE_SERVER_CODES: ReadonlySet<number> = new Set([
  3, // UNEXPECTED_END_OF_FILE
  159, // TIMEOUT_EXCEEDED
  164, // READONLY
  202, // TOO_MANY_SIMULTANEOUS_QUERIES
  203, // NO_FREE_CONNECTION
  209, // SOCKET_TIMEOUT
  210, // NETWORK_ERROR
  236, // ABORTED
  241, // MEMORY_LIMIT_EXCEEDED
  242, // TABLE_IS_READ_ONLY
  252, // TOO_MANY_PARTS
  319, // UNKNOWN_STATUS_OF_INSERT
  394, // QUERY_WAS_CANCELLED
  425, // SYSTEM_ERROR
  999, // KEEPER_EXCEPTION
])

/** Transport failures of the HTTP client (node errno codes). */
const RETRIABLE_TRANSPORT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_SOCKET',
])

const TRANSPORT_MESSAGE = /socket hang up|timeout|timed out|other side closed|ECONNRESET|ECONNREFUSED|status code 5\d\d|\b50[234]\b|service unavailable/i

/** The server code: a numeric `code` (HTTP client / chdb) or "Code: N" in the text (18.16 only sends it there). */
const serverCode = (e: { code?: unknown; message?: unknown }): number | undefined => {
  if (typeof e.code === 'string' && /^\d+$/.test(e.code)) return Number(e.code)
  if (typeof e.code === 'number') return e.code
  const m = /\bCode: (\d+)\b/.exec(String(e.message ?? ''))
  return m ? Number(m[1]) : undefined
}

/** Pure: classifies any thrown value into a StoreError that says whether to retry the batch. */
export const toStoreError = (error: unknown): StoreError => {
  if (error instanceof StoreError) return error
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as { code?: unknown; message?: unknown }
  const message = String(e.message ?? error)
  const code = serverCode(e)
  if (code !== undefined) return new StoreError(`ClickHouse error ${code}: ${message}`, RETRIABLE_SERVER_CODES.has(code), `CLICKHOUSE_${code}`, { cause: error })
  if (typeof e.code === 'string' && RETRIABLE_TRANSPORT_CODES.has(e.code)) return new StoreError(message, true, e.code, { cause: error })
  // Bugs in our own code are not fixed by waiting.
  if (error instanceof TypeError || error instanceof RangeError || error instanceof SyntaxError) return new StoreError(message, false, 'BUG', { cause: error })
  if (TRANSPORT_MESSAGE.test(message)) return new StoreError(message, true, 'TRANSPORT', { cause: error })
  return new StoreError(message, false, typeof e.code === 'string' ? e.code : 'UNKNOWN', { cause: error })
}
