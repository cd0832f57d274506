import { createServer, type Server, type Socket } from 'node:net'
import * as tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConnectionError } from '../../../../src/adapters/connection-failure.js'
import { PLAINTEXT } from '../../../../src/adapters/kafka/shared/kafka-security.js'
import { classifyPlaintext, probeBroker } from '../../../../src/adapters/kafka/shared/kafka-transport-probe.js'
import { selfSignedCert, type SelfSignedCert } from '../../../support/self-signed-cert.js'

// Issue 47.2: silence, a reset and an answer cut short are the network's, not a TLS listener's.
const CORRELATION = Buffer.from([0x64, 0x65, 0x76, 0x73])
const answerOf = (bodyBytes: number) => Buffer.concat([Buffer.from([0, 0, 0, 4 + bodyBytes]), CORRELATION, Buffer.alloc(bodyBytes)])
/** A TLS 1.2 fatal alert (unexpected_message): what a TLS listener may send back to plaintext bytes. */
const TLS_ALERT = Buffer.from([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x0a])

describe('what a plaintext answer says', () => {
  it.each([
    ['a complete ApiVersions answer', { kind: 'answer', bytes: answerOf(6) }, false, undefined],
    ['a TLS alert record', { kind: 'answer', bytes: TLS_ALERT }, false, 'expects-tls'],
    ['a Kafka answer begun, then closed', { kind: 'closed', bytes: answerOf(6).subarray(0, 9) }, false, 'cut-short'],
    ['three bytes of a size, then reset', { kind: 'reset', bytes: Buffer.from([0, 0, 0]) }, false, 'cut-short'],
    ['an answer begun, then silence', { kind: 'silent', bytes: answerOf(100).subarray(0, 12) }, false, 'cut-short'],
    ['something that is not Kafka, then closed', { kind: 'closed', bytes: Buffer.from('HTTP/1.1 400 Bad Request\r\n') }, false, 'expects-tls'],
    ['nothing, reset, no TLS either', { kind: 'reset', bytes: Buffer.alloc(0) }, false, 'reset'],
    ['nothing, closed, no TLS either', { kind: 'closed', bytes: Buffer.alloc(0) }, false, 'cut-short'],
    ['nothing at all, no TLS either', { kind: 'silent', bytes: Buffer.alloc(0) }, false, 'silent'],
    ['nothing, closed, and a TLS handshake answered', { kind: 'closed', bytes: Buffer.alloc(0) }, true, 'expects-tls'],
    ['nothing, reset, and a TLS handshake answered', { kind: 'reset', bytes: Buffer.alloc(0) }, true, 'expects-tls'],
  ] as const)('%s', (_, answer, tlsAnswers, failure) => {
    expect(classifyPlaintext(answer, tlsAnswers).failure).toBe(failure)
  })
})

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))

const probeFailure = async (port: number): Promise<ConnectionError> => {
  const e = await probeBroker(`127.0.0.1:${port}`, PLAINTEXT, 1500).then(() => undefined, (x: unknown) => x)
  expect(e).toBeInstanceOf(ConnectionError)
  return e as ConnectionError
}

describe('the start-up probe against listeners that behave as recorded', () => {
  const servers: Server[] = []
  let cert: SelfSignedCert
  const serve = async (onRequest: (s: Socket) => void, server: Server = createServer()) => {
    server.on(server instanceof tls.Server ? 'secureConnection' : 'connection', (s: Socket) => s.once('data', () => onRequest(s)))
    servers.push(server)
    return listen(server)
  }
  beforeAll(() => void (cert = selfSignedCert()))
  afterAll(() => {
    for (const s of servers) s.close()
    cert?.remove()
  })

  it('a reset before any answer: reset, retriable, never TLS', async () => {
    const e = await probeFailure(await serve((s) => s.resetAndDestroy()))
    expect([e.failure, e.retriable]).toEqual(['reset', true])
    expect(e.message).toMatch(/^Kafka listener 127\.0\.0\.1:\d+: the connection was reset before any answer.*not TLS/)
  })

  it('silence: silent, retriable', async () => {
    const e = await probeFailure(await serve(() => undefined))
    expect([e.failure, e.retriable]).toEqual(['silent', true])
    expect(e.message).not.toMatch(/looks like a TLS|is a TLS listener/)
  })

  it('an answer cut short: cut-short, retriable', async () => {
    const e = await probeFailure(await serve((s) => s.end(answerOf(40).subarray(0, 10))))
    expect([e.failure, e.retriable]).toEqual(['cut-short', true])
    expect(e.message).toMatch(/cut short after 10 bytes/)
  })

  it('a complete answer: the probe passes', async () => {
    const port = await serve((s) => s.write(answerOf(6)))
    await expect(probeBroker(`127.0.0.1:${port}`, PLAINTEXT, 1500)).resolves.toBeUndefined()
  })

  it('a real TLS listener (Node\'s, which closes on plaintext bytes): expects-tls, not retriable', async () => {
    const server = tls.createServer({ key: cert.key, cert: cert.cert })
    server.on('tlsClientError', () => undefined)
    const e = await probeFailure(await serve(() => undefined, server))
    expect([e.failure, e.retriable]).toEqual(['expects-tls', false])
    expect(e.message).toMatch(/TLS listener/)
  })
})
