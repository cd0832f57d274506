import { isIP } from 'node:net'
import * as tls from 'node:tls'

/** How long the follow-up TLS handshake may take (a TLS listener answers a ClientHello at once). */
const TLS_CHECK_MS = 3000

/**
 * Whether `host:port` answers a TLS handshake (any TLS answer: a certificate, or an alert). A
 * plaintext request closed without an answer is a TLS listener's doing when this says yes, and a
 * bad network's (a reset, a proxy) when it says no: the start-up probes of Kafka and ClickHouse
 * tell a setting to fix from a fault to wait out by it.
 */
export const answersTls = (host: string, port: number, timeoutMs = TLS_CHECK_MS): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = tls.connect({ host, port, rejectUnauthorized: false, servername: isIP(host) ? undefined : host })
    const done = (yes: boolean) => {
      clearTimeout(timer)
      socket.destroy()
      resolve(yes)
    }
    const timer = setTimeout(() => done(false), timeoutMs)
    socket.once('secureConnect', () => done(true))
    // An alert (a client certificate required, no common cipher) is still a TLS listener talking;
    // bytes that are no TLS record (a plain HTTP server's 400) are a listener that does not speak it.
    socket.once('error', (e: NodeJS.ErrnoException) => {
      const text = `${e.code ?? ''} ${e.message}`
      done(/alert|SSL routines|ERR_SSL/i.test(text) && !/wrong.version.number|http.request|packet.length.too.long/i.test(text) && e.code !== 'ECONNRESET')
    })
    socket.once('close', () => done(false))
  })
