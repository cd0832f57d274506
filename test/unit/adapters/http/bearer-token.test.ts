import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import type { JWK } from 'jose'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createTokenVerifier, type TokenSettings } from '../../../../src/adapters/http/read-api/bearer-token.js'
import { keyPair, secretBytes, signToken, unsignedToken, type TestKeyPair } from '../../../support/tokens.js'

const DEV = '3f2b8a9e-5d4c-4b1a-9e8f-7a6b5c4d3e2f'
const hs = (o: Partial<TokenSettings> = {}) => createTokenVerifier({ key: { kind: 'secret', secret: secretBytes() }, ...o })
const bearer = (token: string) => `Bearer ${token}`
const rejected = (detail: RegExp | string) => ({ _tag: 'Left', left: { code: 'token-invalid', detail: expect.stringMatching(detail) } })

describe('bearer token rules (jose): the actor only from a verified token', () => {
  let rsa: TestKeyPair
  let ec: TestKeyPair
  beforeAll(async () => {
    rsa = await keyPair('RS256')
    ec = await keyPair('ES256')
  })

  it('accepts a valid HS256 token and takes the developer from developer_id, lower-cased', async () => {
    const token = await signToken({ developer_id: DEV.toUpperCase() }, secretBytes())
    expect(await hs()(bearer(token))).toEqual(E.right({ developerId: DEV }))
    expect(await hs()(`bearer   ${token}`)).toEqual(E.right({ developerId: DEV }))
  })

  it.each([
    ['no header', undefined],
    ['an empty header', ''],
    ['another scheme', 'Basic ZGV2OnNlY3JldA=='],
    ['the scheme alone', 'Bearer'],
  ])('%s: token-missing', async (_, header) => {
    expect(await hs()(header)).toEqual(E.left({ code: 'token-missing', detail: 'a bearer token is required' }))
  })

  it.each<[string, () => Promise<string>, RegExp]>([
    ['a bad signature', () => signToken({ developer_id: DEV }, secretBytes('another-secret-of-at-least-32-bytes!!')), /signature/],
    ['alg none', async () => unsignedToken({ developer_id: DEV }), /algorithm|malformed/],
    ['garbage', async () => 'abc.def.ghi', /malformed/],
    ['an RS256 token on an HS256 key', () => signToken({ developer_id: DEV }, rsa.privateKey, { alg: 'RS256' }), /algorithm/],
    ['expired beyond the tolerance', () => signToken({ developer_id: DEV }, secretBytes(), { expiresIn: -60 }), /expired/],
    ['not valid yet beyond the tolerance', () => signToken({ developer_id: DEV }, secretBytes(), { notBefore: 120 }), /not valid yet/],
    ['no exp', () => signToken({ developer_id: DEV }, secretBytes(), { noExp: true }), /"exp"/],
    ['no developer claim', () => signToken({ sub: DEV }, secretBytes()), /"developer_id" claim is missing or not a GUID/],
    ['a non-GUID developer claim', () => signToken({ developer_id: "1' OR '1'='1" }, secretBytes()), /not a GUID/],
    ['a numeric developer claim', () => signToken({ developer_id: 42 }, secretBytes()), /not a GUID/],
    ['a developer claim that is an array', () => signToken({ developer_id: [DEV] }, secretBytes()), /not a GUID/],
  ])('%s: 401 with the reason', async (_, token, reason) => {
    expect(await hs()(bearer(await token()))).toEqual(rejected(reason))
  })

  it('allows the clock tolerance on exp and nbf (30 s by default, configurable)', async () => {
    const late = await signToken({ developer_id: DEV }, secretBytes(), { expiresIn: -10 })
    const early = await signToken({ developer_id: DEV }, secretBytes(), { notBefore: 10 })
    expect(await hs()(bearer(late))).toEqual(E.right({ developerId: DEV }))
    expect(await hs()(bearer(early))).toEqual(E.right({ developerId: DEV }))
    expect(await hs({ clockToleranceSeconds: 0 })(bearer(late))).toEqual(rejected(/expired/))
  })

  it('checks issuer and audience when set, and only then', async () => {
    const verify = hs({ issuer: 'https://id.example', audience: 'dev-stats' })
    const sign = (o: { issuer?: string; audience?: string }) => signToken({ developer_id: DEV }, secretBytes(), o)
    expect(await verify(bearer(await sign({ issuer: 'https://id.example', audience: 'dev-stats' })))).toEqual(E.right({ developerId: DEV }))
    expect(await verify(bearer(await sign({ issuer: 'https://evil.example', audience: 'dev-stats' })))).toEqual(rejected(/wrong issuer/))
    expect(await verify(bearer(await sign({ audience: 'dev-stats' })))).toEqual(rejected(/"iss"|wrong issuer/))
    expect(await verify(bearer(await sign({ issuer: 'https://id.example', audience: 'other' })))).toEqual(rejected(/wrong audience/))
    expect(await hs()(bearer(await sign({ issuer: 'anyone', audience: 'anything' })))).toEqual(E.right({ developerId: DEV }))
  })

  it('reads the developer from the configured claim', async () => {
    const token = await signToken({ 'https://dev-stats/developer': DEV, developer_id: 'not-used' }, secretBytes())
    expect(await hs({ developerClaim: 'https://dev-stats/developer' })(bearer(token))).toEqual(E.right({ developerId: DEV }))
  })

  it('RS256 and ES256 public keys: the key decides the algorithm; HS256 signed with the PEM text (key confusion) fails', async () => {
    for (const pair of [rsa, ec]) {
      const verify = createTokenVerifier({ key: { kind: 'public-key', pem: pair.publicPem } })
      expect(await verify(bearer(await signToken({ developer_id: DEV }, pair.privateKey, { alg: pair.alg })))).toEqual(E.right({ developerId: DEV }))
      expect(await verify(bearer(await signToken({ developer_id: DEV }, secretBytes(pair.publicPem))))).toEqual(rejected(/algorithm/))
      expect(await verify(bearer(unsignedToken({ developer_id: DEV })))).toEqual(rejected(/algorithm|malformed/))
    }
    const rsaKey = createTokenVerifier({ key: { kind: 'public-key', pem: rsa.publicPem } })
    expect(await rsaKey(bearer(await signToken({ developer_id: DEV }, ec.privateKey, { alg: 'ES256' })))).toEqual(rejected(/algorithm/))
    const other = await keyPair('RS256')
    expect(await rsaKey(bearer(await signToken({ developer_id: DEV }, other.privateKey, { alg: 'RS256' })))).toEqual(rejected(/signature/))
  })

  describe('JWKS URL: cached, a rotated key is fetched, an unreachable key set is not the client’s fault', () => {
    let served: JWK[] = []
    let fetches = 0
    let server: Server
    let url: URL
    beforeAll(async () => {
      server = createServer((_, res) => {
        fetches++
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: served }))
      })
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
      url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`)
    })
    afterAll(() => new Promise<void>((r) => server.close(() => r())))
    afterEach(() => vi.useRealTimers())

    it('verifies with the key set, caches it, and picks up a rotated key after the cooldown', async () => {
      const next = await keyPair('ES256')
      served = [rsa.jwk]
      fetches = 0
      const verify = createTokenVerifier({ key: { kind: 'jwks', url } })
      const first = await signToken({ developer_id: DEV }, rsa.privateKey, { alg: 'RS256', kid: rsa.jwk.kid as string })
      expect(await verify(bearer(first))).toEqual(E.right({ developerId: DEV }))
      expect(await verify(bearer(first))).toEqual(E.right({ developerId: DEV }))
      expect(fetches).toBe(1)

      served = [next.jwk]
      const rotated = await signToken({ developer_id: DEV }, next.privateKey, { alg: 'ES256', kid: next.jwk.kid as string })
      expect(await verify(bearer(rotated))).toEqual(rejected(/no single key/))
      vi.useFakeTimers({ toFake: ['Date'] })
      vi.setSystemTime(Date.now() + 31_000)
      expect(await verify(bearer(rotated))).toEqual(E.right({ developerId: DEV }))
      expect(fetches).toBe(2)
      expect(await verify(bearer(await signToken({ developer_id: DEV }, secretBytes(), { kid: next.jwk.kid as string })))).toEqual(rejected(/algorithm/))
    })

    it('a key set that cannot be fetched: key-unavailable, not a 401', async () => {
      const verify = createTokenVerifier({ key: { kind: 'jwks', url: new URL('http://127.0.0.1:9/jwks.json') } })
      const token = await signToken({ developer_id: DEV }, rsa.privateKey, { alg: 'RS256', kid: rsa.jwk.kid as string })
      expect(await verify(bearer(token))).toEqual(E.left({ code: 'key-unavailable', detail: 'the signing keys cannot be fetched right now' }))
    })
  })
})
