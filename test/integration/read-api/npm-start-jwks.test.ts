import { execFile } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { promisify } from 'node:util'
import type { AddressInfo } from 'node:net'
import type { JWK } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePort } from '../../support/http.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart } from '../../support/npm-script.js'
import { guid } from '../../support/events.js'
import { keyPair, signToken, type TestKeyPair } from '../../support/tokens.js'

// Issue 38.4: the JWKS key source end to end through `npm start`: a local identity provider's
// key set, a token of its key answered, then the provider rotates (a new key, the old one
// withdrawn): the new key's tokens are answered without a restart and the old key's refused.
// `npm run check` loads the key set too.
const execFileAsync = promisify(execFile)
let keys: JWK[] = []
let server: Server
let jwksUrl = ''
let fetches = 0

beforeAll(async () => {
  server = createServer((req, res) => {
    fetches += 1
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const PATH = '/v1/session-metrics?from=2026-11-01&to=2026-11-30'
const status = async (base: string, key: TestKeyPair, developerId: string) => {
  const token = await signToken({ developer_id: developerId }, key.privateKey, { alg: key.alg, kid: key.jwk.kid })
  return (await fetch(`${base}${PATH}`, { headers: { authorization: `Bearer ${token}` } })).status
}

describe('npm start with DEV_STATS_READ_API_JWKS_URL', () => {
  it('verifies tokens of the key set and follows a key rotation without a restart', async () => {
    const [first, second] = [await keyPair('ES256'), await keyPair('RS256')]
    keys = [first.jwk]
    const port = await freePort()
    const env = {
      DEV_STATS_BROKER: 'memory', DEV_STATS_STORE: 'memory', DEV_STATS_HTTP_HOST: '127.0.0.1', DEV_STATS_HTTP_PORT: String(port),
      DEV_STATS_READ_API_JWKS_URL: jwksUrl, DEV_STATS_LOG_LEVEL: 'info',
    }
    // not spawnSync: the key set is served by this very process
    const check = await execFileAsync('npm', ['run', '--silent', 'check'], { env: { ...process.env, ...env } })
    expect(check.stdout).toMatch(/^ok {4}read API  JWKS at http:\/\/127\.0\.0\.1:\d+\/\.well-known\/jwks\.json: 1 key\(s\)$/m)

    const service = new NpmStart(env)
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 60_000, `npm start:\n${service.output}`)
      expect(service.logLine(/^serving /)?.['readApi']).toBe('jwks')
      const base = `http://127.0.0.1:${port}`
      const developer = guid()
      expect(await status(base, first, developer)).toBe(200)

      keys = [second.jwk] // rotation: the first key withdrawn
      let last = 0
      // a token naming an unknown kid refetches the set (at most every 30 s)
      await eventuallyAsync(async () => (last = await status(base, second, developer)) === 200, 45_000, `the rotated key accepted (last status ${last})`)
      expect(fetches).toBeGreaterThanOrEqual(2)
      expect(await status(base, first, developer)).toBe(401)
    } finally {
      await service.stop()
    }
  }, 120_000)
})
