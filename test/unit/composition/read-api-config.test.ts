import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError } from '../../../src/composition/config-error.js'
import { readApiSettings } from '../../../src/composition/read-api-config.js'
import { TEST_SECRET } from '../../support/tokens.js'

const dir = mkdtempSync(join(tmpdir(), 'read-api-config-'))
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const pem = (type: 'rsa' | 'ec' | 'ed25519', namedCurve = 'prime256v1'): string => {
  const { publicKey } = type === 'rsa' ? generateKeyPairSync('rsa', { modulusLength: 2048 })
    : type === 'ec' ? generateKeyPairSync('ec', { namedCurve })
      : generateKeyPairSync('ed25519')
  return publicKey.export({ type: 'spki', format: 'pem' }).toString()
}

const SECRET_FILE = file('secret', `${TEST_SECRET}\n`)

describe('DEV_STATS_READ_API_* settings', () => {
  it('no key: no API (undefined)', () => {
    expect(readApiSettings({})).toBeUndefined()
    expect(readApiSettings({ DEV_STATS_READ_API_JWT_SECRET_FILE: '' })).toBeUndefined()
  })

  it('a secret file: HS256 with its bytes (one trailing newline dropped) and the defaults', () => {
    expect(readApiSettings({ DEV_STATS_READ_API_JWT_SECRET_FILE: SECRET_FILE })).toEqual({
      key: { kind: 'secret', secret: new TextEncoder().encode(TEST_SECRET) },
      developerClaim: 'developer_id',
      clockToleranceSeconds: 30,
    })
  })

  it('a public key file (RSA or EC P-256) or a JWKS URL, with issuer, audience, claim and tolerance', () => {
    const rsa = pem('rsa')
    expect(readApiSettings({
      DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE: file('rsa.pem', rsa),
      DEV_STATS_READ_API_ISSUER: 'https://id.example',
      DEV_STATS_READ_API_AUDIENCE: 'dev-stats',
      DEV_STATS_READ_API_DEVELOPER_CLAIM: 'dev',
      DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS: '5',
    })).toEqual({ key: { kind: 'public-key', pem: rsa }, issuer: 'https://id.example', audience: 'dev-stats', developerClaim: 'dev', clockToleranceSeconds: 5 })
    expect(readApiSettings({ DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE: file('ec.pem', pem('ec', 'prime256v1')) })?.key.kind).toBe('public-key')
    expect(readApiSettings({ DEV_STATS_READ_API_JWKS_URL: 'https://id.example/.well-known/jwks.json' })?.key).toEqual({ kind: 'jwks', url: new URL('https://id.example/.well-known/jwks.json') })
  })

  it.each<[string, Record<string, string>]>([
    ['DEV_STATS_READ_API_JWT_SECRET_FILE', { DEV_STATS_READ_API_JWT_SECRET_FILE: file('short', 'too-short\n') }],
    ['DEV_STATS_READ_API_JWT_SECRET_FILE', { DEV_STATS_READ_API_JWT_SECRET_FILE: join(dir, 'missing') }],
    ['DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE', { DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE: SECRET_FILE }],
    ['DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE', { DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE: file('ed.pem', pem('ed25519')) }],
    ['DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE', { DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE: file('p384.pem', pem('ec', 'secp384r1')) }],
    ['DEV_STATS_READ_API_JWKS_URL', { DEV_STATS_READ_API_JWKS_URL: 'ftp://id.example/jwks' }],
    ['DEV_STATS_READ_API_JWKS_URL', { DEV_STATS_READ_API_JWKS_URL: 'not a url' }],
    ['DEV_STATS_READ_API_JWKS_URL', { DEV_STATS_READ_API_JWT_SECRET_FILE: SECRET_FILE, DEV_STATS_READ_API_JWKS_URL: 'https://id.example/jwks' }],
    ['DEV_STATS_READ_API_ISSUER', { DEV_STATS_READ_API_ISSUER: 'https://id.example' }],
    ['DEV_STATS_READ_API_RATE_LIMIT', { DEV_STATS_READ_API_RATE_LIMIT: '100' }],
    ['DEV_STATS_READ_API_RATE_WINDOW_SECONDS', { DEV_STATS_READ_API_RATE_WINDOW_SECONDS: '60' }],
    ['DEV_STATS_READ_API_CORS_ORIGINS', { DEV_STATS_READ_API_CORS_ORIGINS: 'https://dash.example.com' }],
    ['DEV_STATS_READ_API_DEVELOPER_CLAIM', { DEV_STATS_READ_API_JWT_SECRET_FILE: SECRET_FILE, DEV_STATS_READ_API_DEVELOPER_CLAIM: 'two words' }],
    ['DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS', { DEV_STATS_READ_API_JWT_SECRET_FILE: SECRET_FILE, DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS: '301' }],
    ['DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS', { DEV_STATS_READ_API_JWT_SECRET_FILE: SECRET_FILE, DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS: '-1' }],
  ])('names %s when it is wrong: %j', (setting, env) => {
    let error: unknown
    try {
      readApiSettings(env)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect((error as ConfigError).setting).toBe(setting)
    expect((error as ConfigError).message).not.toContain(TEST_SECRET)
  })
})
