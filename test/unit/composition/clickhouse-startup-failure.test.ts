import * as http from 'node:http'
import { createServer, type Server } from 'node:net'
import * as tls from 'node:tls'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { answersTls } from '../../../src/adapters/answers-tls.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { loadConfig } from '../../../src/composition/config.js'
import { clickhouseStartupFailure, explainClickHouseFailure } from '../../../src/composition/startup-errors.js'
import { selfSignedCert, type SelfSignedCert } from '../../support/self-signed-cert.js'

// What the soak's wire faults showed: a reset on the way to ClickHouse at start-up was told as
// "if that port serves HTTPS, use an https:// URL" and not tried again. A closed plain-HTTP
// request is a TLS port's doing only when the port answers a TLS handshake.
const config = loadConfig({ DEV_STATS_STORE: 'clickhouse', DEV_STATS_CLICKHOUSE_URL: 'http://127.0.0.1:8123' })
const reset = new StoreError('read ECONNRESET', true, 'ECONNRESET')

describe('why the store could not be reached at start-up', () => {
  it('a closed plain-HTTP request: TLS when the port answers a TLS handshake, else a network reset', async () => {
    const asked: [string, number][] = []
    const tlsAnswers = (yes: boolean) => async (host: string, port: number) => (asked.push([host, port]), yes)
    expect(await clickhouseStartupFailure(reset, config, tlsAnswers(true))).toBe('expects-tls')
    expect(await clickhouseStartupFailure(reset, config, tlsAnswers(false))).toBe('reset')
    expect(asked).toEqual([['127.0.0.1', 8123], ['127.0.0.1', 8123]])
    expect(explainClickHouseFailure(reset, config, 'reset')).toMatch(/a network fault between this host and the server .*not a setting: start tries again/)
    expect(explainClickHouseFailure(reset, config, 'reset')).not.toMatch(/HTTPS|https:\/\//)
    expect(explainClickHouseFailure(reset, config, 'expects-tls')).toMatch(/if that port serves HTTPS, use an https:\/\/ DEV_STATS_CLICKHOUSE_URL/)
  })

  it('no answer in time: silence on the way; a refused connection and a wrong password stay what they are', async () => {
    const never = async () => { throw new Error('not asked') }
    expect(await clickhouseStartupFailure(new StoreError('Timeout error.', true, 'TIMEOUT'), config, never)).toBe('silent')
    expect(await clickhouseStartupFailure(new StoreError('connect ECONNREFUSED', true, 'ECONNREFUSED', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }), config, never)).toBe('unreachable')
    expect(await clickhouseStartupFailure(new StoreError('Wrong password', false, 'CLICKHOUSE_193'), config, never)).toBe('auth')
  })
})

describe('answersTls against real listeners', () => {
  const servers: Server[] = []
  const listen = (server: Server): Promise<number> =>
    new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
  let cert: SelfSignedCert
  beforeAll(() => void (cert = selfSignedCert()))
  afterAll(() => {
    for (const s of servers) s.close()
    cert?.remove()
  })

  it('yes for a TLS listener, no for one that resets, stays silent or answers in plain HTTP', async () => {
    const tlsServer = tls.createServer({ key: cert.key, cert: cert.cert })
    tlsServer.on('tlsClientError', () => undefined)
    const resetting = createServer((s) => s.resetAndDestroy())
    const silent = createServer(() => undefined)
    // a plain HTTP server answers a ClientHello with a 400: not TLS (ClickHouse's HTTP port behind a proxy that reset the first try)
    const plainHttp = http.createServer((_, res) => res.end('ok'))
    servers.push(tlsServer, resetting, silent, plainHttp)
    expect(await answersTls('127.0.0.1', await listen(tlsServer))).toBe(true)
    expect(await answersTls('127.0.0.1', await listen(resetting))).toBe(false)
    expect(await answersTls('127.0.0.1', await listen(silent), 500)).toBe(false)
    expect(await answersTls('127.0.0.1', await listen(plainHttp))).toBe(false)
  })
})
