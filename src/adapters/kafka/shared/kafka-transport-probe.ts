import { isIP, Socket } from 'node:net'
import * as tls from 'node:tls'
import { ConnectionError, transportFailureOf, type ConnectionFailure } from '../../connection-failure.js'
import { usesTls, type KafkaSecurity } from './kafka-security.js'

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

const isApiVersionsAnswer = (b: Buffer): boolean => b.length >= 8 && b.readInt32BE(0) > 0 && b.readInt32BE(0) < 1 << 24 && b.readInt32BE(4) === CORRELATION_ID

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

/**
 * One ApiVersions round trip to `host:port` over the configured transport. Tells a plaintext
 * client at a TLS listener, a TLS client at a plaintext one and an untrusted certificate apart,
 * within `timeoutMs`, where the clients themselves would retry for a long time or forever.
 */
export const probeBroker = (address: string, security: KafkaSecurity, timeoutMs: number): Promise<void> => {
  const cut = address.lastIndexOf(':')
  const host = address.slice(0, cut).replace(/^\[|\]$/g, '')
  const port = Number(address.slice(cut + 1))
  const tlsWanted = usesTls(security)
  return new Promise((resolve, reject) => {
    const socket = open(host, port, security)
    let received = Buffer.alloc(0)
    let connected = false
    const finish = (failure?: ConnectionFailure, detail = '', cause?: unknown) => {
      clearTimeout(timer)
      socket.destroy()
      if (!failure) resolve()
      else reject(new ConnectionError(failure, `Kafka listener ${address}: ${detail}`, { cause }))
    }
    // A TLS listener that got plaintext bytes (or vice versa) closes the connection or says nothing.
    const mismatch = (): [ConnectionFailure, string] =>
      tlsWanted
        ? ['not-tls', 'the listener does not speak TLS (it closed the connection during the TLS handshake)']
        : ['expects-tls', 'the listener did not answer a plaintext Kafka request (it looks like a TLS listener)']
    const timer = setTimeout(() => {
      if (!connected) finish('timeout', `no connection within ${timeoutMs} ms`)
      else finish(...mismatch())
    }, timeoutMs)
    socket.once(tlsWanted ? 'secureConnect' : 'connect', () => {
      connected = true
      socket.write(apiVersionsRequest())
    })
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      if (received.length < 8) return
      if (isApiVersionsAnswer(received)) finish()
      else finish(...mismatch())
    })
    socket.on('error', (e: NodeJS.ErrnoException) => {
      const failure = transportFailureOf(e)
      if (failure && failure !== 'not-tls') finish(failure, reasonOf(e), e)
      else if (failure === 'not-tls' || e.code === 'ECONNRESET' || e.code === 'EPIPE') finish(...mismatch(), e)
      else finish('unreachable', reasonOf(e), e)
    })
    socket.on('close', () => finish(...mismatch()))
  })
}

/** Succeeds once any bootstrap broker answers; otherwise fails with the first broker's reason. */
export const probeTransport = async (brokers: readonly string[], security: KafkaSecurity, timeoutMs = 5000): Promise<void> => {
  const results = await Promise.allSettled(brokers.map((b) => probeBroker(b, security, timeoutMs)))
  if (results.some((r) => r.status === 'fulfilled')) return
  throw (results[0] as PromiseRejectedResult).reason
}
