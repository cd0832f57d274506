import { PortError } from '../application/ports/retriable.js'

/**
 * Why a connection to Kafka or ClickHouse could not be set up, in terms a user can act on; the
 * composition root names the setting to check for each.
 */
export type ConnectionFailure =
  | 'auth' // wrong user name or password
  | 'sasl-mechanism' // the server does not offer the SASL mechanism asked for
  | 'unknown-ca' // the server's certificate is not signed by a trusted CA
  | 'hostname' // the certificate does not name the host connected to
  | 'client-cert' // the server requires (or rejected) a client certificate
  | 'expects-tls' // a plaintext client against a TLS endpoint
  | 'not-tls' // a TLS client against a plaintext endpoint
  | 'unreachable' // nothing listens there
  | 'timeout' // no answer in time
  | 'reset' // connected, then reset before any answer, by something that does not speak TLS either
  | 'silent' // connected, then no answer at all (and no TLS handshake answered either)
  | 'cut-short' // connected, then closed before the answer was complete

/** The network's failures, not the listener's settings: worth trying again (a blip, a proxy, a restart). */
export const NETWORK_FAILURES: ReadonlySet<ConnectionFailure> = new Set(['reset', 'silent', 'cut-short'])

export class ConnectionError extends PortError {
  constructor(readonly failure: ConnectionFailure, message: string, options?: { cause?: unknown }) {
    super(message, NETWORK_FAILURES.has(failure), options)
    this.name = 'ConnectionError'
  }
}

const UNKNOWN_CA = new Set([
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'SELF_SIGNED_CERT_IN_CHAIN', 'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'UNABLE_TO_GET_ISSUER_CERT', 'CERT_SIGNATURE_FAILURE',
])

/** Classifies Node's socket and TLS errors; undefined for anything else. */
export const transportFailureOf = (e: unknown): ConnectionFailure | undefined => {
  const { code = '', message = '' } = (e ?? {}) as { code?: unknown; message?: unknown }
  const text = `${String(code)} ${String(message)}`
  if (UNKNOWN_CA.has(String(code))) return 'unknown-ca'
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') return 'hostname'
  if (/CERTIFICATE_REQUIRED|alert (bad|unknown|unsupported) certificate|alert certificate unknown/i.test(text)) return 'client-cert'
  if (/wrong version number|packet length too long|unknown protocol|before secure TLS connection/i.test(text)) return 'not-tls'
  if (code === 'ECONNREFUSED' || code === 'EHOSTUNREACH' || code === 'ENOTFOUND') return 'unreachable'
  return undefined
}
