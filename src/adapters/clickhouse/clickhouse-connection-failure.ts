import { transportFailureOf, type ConnectionFailure } from '../connection-failure.js'

// 192 UNKNOWN_USER, 193 WRONG_PASSWORD (18.16), 194 REQUIRED_PASSWORD, 516 AUTHENTICATION_FAILED (current).
const AUTH_CODES = /^CLICKHOUSE_(192|193|194|516)$/
const CLOSED = /ECONNRESET|socket hang up|other side closed|EPIPE/i

/**
 * Why opening a ClickHouse connection failed, from a StoreError (or what it wraps), as far as it
 * is a setting's fault. `https` tells a closed connection apart: plain HTTP to a TLS port.
 */
export const clickhouseFailureOf = (e: unknown, https: boolean): ConnectionFailure | undefined => {
  const err = (e ?? {}) as { code?: unknown; message?: unknown; cause?: unknown }
  const probed = (err.cause as { failure?: ConnectionFailure } | undefined)?.failure
  if (probed) return probed
  if (AUTH_CODES.test(String(err.code ?? ''))) return 'auth'
  const transport = transportFailureOf(err.cause) ?? transportFailureOf(e)
  if (transport) return transport
  if (!https && CLOSED.test(`${String(err.code ?? '')} ${String(err.message ?? '')}`)) return 'expects-tls'
  return undefined
}
