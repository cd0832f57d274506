import { isIP, Socket } from 'node:net'
import * as tls from 'node:tls'
import { ConnectionError, transportFailureOf, type ConnectionFailure } from '../../connection-failure.js'
import { usesTls, type KafkaSecurity } from './kafka-security.js'
import { answersTls } from '../../answers-tls.js'

const CORRELATION_ID = 0x64657673
const CLIENT_ID = Buffer.from('dev-stats-probe')
/** ApiVersions v0: the one request every Kafka listener answers before TLS or SASL is settled. */
const apiVersionsRequest = (): Buffer => {
  const body = Buffer.alloc(4 + 2 + 2 + 4 + 2 + CLIENT_ID.length)
  body.writeInt32BE(body.length - 4, 0)
  body.writeInt16BE(18, 4)
  body.writeInt16BE(0, 6)
  body.writeInt32BE(CORRELATION_ID, 8)
  body.writeInt16BE(CLIENT_ID.length, 12)
  CLIENT_ID.copy(body, 14)
  return body
}

// Node's TLS errors carry OpenSSL's location noise: keep the reason only.
const reasonOf = (e: Error): string => e.message.replace(/^[0-9A-F]+:error:[0-9A-F]+:SSL routines:[^:]*:/, '').replace(/:\.\.\/deps[\s\S]*$/, '').trim()

/** What came back to the plaintext ApiVersions request, before the connection ended or went quiet. */
export type PlaintextAnswer =
  | { readonly kind: 'answer'; readonly bytes: Buffer }
  | { readonly kind: 'reset' | 'closed' | 'silent'; readonly bytes: Buffer; readonly error?: NodeJS.ErrnoException }

/** An ApiVersions answer: its size prefix and our correlation id, and all of it arrived. */
const isCompleteAnswer = (b: Buffer): boolean => {
  if (b.length < 8) return false
  const size = b.readInt32BE(0)
  return size > 0 && size < 1 << 24 && b.readInt32BE(4) === CORRELATION_ID && b.length >= 4 + size
}

/** A TLS record (handshake or alert, version 3.x): a TLS listener answering our plaintext bytes. */
const isTlsRecord = (b: Buffer): boolean => b.length >= 3 && (b[0] === 0x15 || b[0] === 0x16) && b[1] === 0x03

/**
 * What a plaintext answer says. An answer begun but not finished was cut short (by the network).
 * No answer at all — a reset, a close, silence — is what a TLS listener does with plaintext and
 * what a bad network does too: `tlsAnswers` (a TLS handshake tried on a new connection) tells them apart.
 */
export const classifyPlaintext = (a: PlaintextAnswer, tlsAnswers: boolean): { failure?: ConnectionFailure; detail: string } => {
  if (isCompleteAnswer(a.bytes)) return { detail: 'answered' }
  if (isTlsRecord(a.bytes)) return { failure: 'expects-tls', detail: 'the listener answered a plaintext Kafka request with TLS (it is a TLS listener)' }
  if (a.bytes.length > 0) {
    // a Kafka answer begins with its size (under 16 MB: a 0 byte first), then our correlation id
    const begun = a.bytes.length >= 8 ? a.bytes.readInt32BE(4) === CORRELATION_ID : a.bytes[0] === 0
    if (begun) return { failure: 'cut-short', detail: `the answer was cut short after ${a.bytes.length} bytes (${a.kind === 'silent' ? 'then nothing more' : `then the connection was ${a.kind === 'reset' ? 'reset' : 'closed'}`}): a network fault, not TLS` }
    return { failure: 'expects-tls', detail: 'the listener answered a plaintext Kafka request with something that is not Kafka (it looks like a TLS listener)' }
  }
  if (tlsAnswers) return { failure: 'expects-tls', detail: 'the listener did not answer a plaintext Kafka request and answered a TLS handshake (it is a TLS listener)' }
  const what = { reset: ['reset', 'the connection was reset before any answer'], closed: ['cut-short', 'the connection was closed before any answer'], silent: ['silent', 'no answer'] } as const
  const [failure, detail] = what[a.kind === 'answer' ? 'closed' : a.kind]
  return { failure, detail: `${detail}, and no answer to a TLS handshake either: a network fault, not TLS` }
}

const open = (host: string, port: number, security: KafkaSecurity): Socket => {
  if (!usesTls(security)) return new Socket().connect(port, host)
  const { ca, cert, key, keyPassword } = security.tls ?? {}
  return tls.connect({
    host,
    port,
    servername: isIP(host) ? undefined : host,
    rejectUnauthorized: true,
    ...(ca ? { ca } : {}),
    ...(cert && key ? { cert, key } : {}),
    ...(keyPassword ? { passphrase: keyPassword } : {}),
  })
}

/** Sends ApiVersions in plaintext and records what came back until the answer is complete, the connection ends or `timeoutMs`. */
const askPlaintext = (socket: Socket, timeoutMs: number): Promise<PlaintextAnswer> =>
  new Promise((resolve) => {
    let bytes = Buffer.alloc(0)
    const done = (kind: PlaintextAnswer['kind'], error?: NodeJS.ErrnoException) => {
      clearTimeout(timer)
      socket.destroy()
      resolve({ kind, bytes, ...(error ? { error } : {}) })
    }
    const timer = setTimeout(() => done('silent'), timeoutMs)
    socket.write(apiVersionsRequest())
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk])
      if (isCompleteAnswer(bytes) || isTlsRecord(bytes)) done('answer')
    })
    socket.on('error', (e: NodeJS.ErrnoException) => done(e.code === 'ECONNRESET' || e.code === 'EPIPE' ? 'reset' : 'closed', e))
    socket.on('close', () => done('closed'))
  })

/**
 * One ApiVersions round trip to `host:port` over the configured transport. Tells a plaintext
 * client at a TLS listener, a TLS client at a plaintext one, an untrusted certificate and a
 * network fault (a reset, silence, an answer cut short: retriable) apart, within about `timeoutMs`
 * (plus a TLS handshake's few seconds when the plaintext request got no answer), where the
 * clients themselves would retry for a long time or forever.
 */
export const probeBroker = async (address: string, security: KafkaSecurity, timeoutMs: number): Promise<void> => {
  const cut = address.lastIndexOf(':')
  const host = address.slice(0, cut).replace(/^\[|\]$/g, '')
  const port = Number(address.slice(cut + 1))
  const tlsWanted = usesTls(security)
  const fail = (failure: ConnectionFailure, detail: string, cause?: unknown) => new ConnectionError(failure, `Kafka listener ${address}: ${detail}`, { cause })
  const started = Date.now()
  const socket = open(host, port, security)
  const connected = await new Promise<{ error?: NodeJS.ErrnoException; late?: true }>((resolve) => {
    const timer = setTimeout(() => resolve({ late: true }), timeoutMs)
    socket.once(tlsWanted ? 'secureConnect' : 'connect', () => (clearTimeout(timer), resolve({})))
    socket.once('error', (error: NodeJS.ErrnoException) => (clearTimeout(timer), resolve({ error })))
    socket.once('close', () => (clearTimeout(timer), resolve({ error: Object.assign(new Error('the connection was closed'), { code: 'ECONNRESET' }) })))
  })
  if (connected.late) {
    socket.destroy()
    throw fail('timeout', `no connection within ${timeoutMs} ms`)
  }
  if (connected.error) {
    socket.destroy()
    const e = connected.error
    const failure = transportFailureOf(e)
    if (failure) throw fail(failure, reasonOf(e), e)
    if (tlsWanted && (e.code === 'ECONNRESET' || e.code === 'EPIPE')) throw fail('not-tls', 'the listener does not speak TLS (it closed the connection during the TLS handshake)', e)
    throw fail('unreachable', reasonOf(e), e)
  }
  if (tlsWanted) {
    const answer = await askPlaintext(socket, Math.max(1, timeoutMs - (Date.now() - started)))
    if (isCompleteAnswer(answer.bytes)) return
    // TLS 1.3: the listener's alert (a client certificate required or refused) comes after the handshake, on the first request
    const error = answer.kind === 'answer' ? undefined : answer.error
    const alert = error && transportFailureOf(error)
    if (error && alert) throw fail(alert, reasonOf(error), error)
    throw fail(answer.bytes.length > 0 ? 'cut-short' : answer.kind === 'silent' ? 'silent' : answer.kind === 'reset' ? 'reset' : 'cut-short', `no complete Kafka answer over TLS (${answer.bytes.length} bytes, then ${answer.kind === 'silent' ? 'nothing' : answer.kind}): a network fault`)
  }
  const answer = await askPlaintext(socket, Math.max(1, timeoutMs - (Date.now() - started)))
  if (isCompleteAnswer(answer.bytes)) return
  const tlsAnswers = answer.bytes.length === 0 && (await answersTls(host, port))
  const { failure, detail } = classifyPlaintext(answer, tlsAnswers)
  if (failure) throw fail(failure, detail)
}

/** Succeeds once any bootstrap broker answers; otherwise fails with the first broker's reason. */
export const probeTransport = async (brokers: readonly string[], security: KafkaSecurity, timeoutMs = 5000): Promise<void> => {
  const results = await Promise.allSettled(brokers.map((b) => probeBroker(b, security, timeoutMs)))
  if (results.some((r) => r.status === 'fulfilled')) return
  throw (results[0] as PromiseRejectedResult).reason
}
