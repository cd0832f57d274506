import { isIP } from 'node:net'
import * as tls from 'node:tls'
import { ConnectionError, transportFailureOf } from '../connection-failure.js'

/**
 * One TLS handshake with an https:// server before the client's first request. A plain HTTP port
 * that gets a TLS ClientHello may wait for the end of a request line that never comes, so the
 * client would sit until its request timeout; here it is a clear `not-tls` within `timeoutMs`.
 */
export const probeTls = (url: string, ca: string | undefined, timeoutMs = 5000): Promise<void> => {
  const { hostname, port } = new URL(url)
  const host = hostname.replace(/^\[|\]$/g, '')
  return new Promise((resolve, reject) => {
    const socket = tls.connect({ host, port: Number(port || 443), servername: isIP(host) ? undefined : host, rejectUnauthorized: true, ...(ca ? { ca } : {}) })
    const fail = (e: ConnectionError) => {
      clearTimeout(timer)
      socket.destroy()
      reject(e)
    }
    const timer = setTimeout(
      () => fail(new ConnectionError('not-tls', `${url}: no TLS handshake within ${timeoutMs} ms: the port does not seem to speak TLS`)),
      timeoutMs,
    )
    socket.once('secureConnect', () => {
      clearTimeout(timer)
      socket.end()
      resolve()
    })
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const failure = transportFailureOf(e) ?? (e.code === 'ECONNRESET' ? 'not-tls' : 'unreachable')
      fail(new ConnectionError(failure, e.message.replace(/:\.\.\/deps[\s\S]*$/, ''), { cause: e }))
    })
  })
}
