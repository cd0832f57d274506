import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { redactSecrets } from '../../../src/composition/startup-errors.js'

const dir = mkdtempSync(join(tmpdir(), 'dev-stats-security-'))
const file = (name: string, text: string): string => {
  const path = join(dir, name)
  writeFileSync(path, text)
  return path
}
const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n'
const KEY = '-----BEGIN PRIVATE KEY-----\nMIIE\n-----END PRIVATE KEY-----\n'
const SASL = { DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'sasl_ssl', DEV_STATS_KAFKA_SASL_USERNAME: 'svc', DEV_STATS_KAFKA_SASL_PASSWORD: 's3cret-kafka' }

const configError = (env: Record<string, string>): ConfigError => {
  try {
    loadConfig(env)
  } catch (e) {
    if (e instanceof ConfigError) return e
    throw e
  }
  throw new Error('expected a ConfigError')
}

describe('Kafka security settings', () => {
  it('sasl_ssl with SCRAM-SHA-512 by default, the CA as PEM text', () => {
    const ca = file('ca.crt', PEM)
    expect(loadConfig({ ...SASL, DEV_STATS_KAFKA_SSL_CA_FILE: ca }).kafka.security).toEqual({
      protocol: 'sasl_ssl',
      sasl: { mechanism: 'scram-sha-512', username: 'svc', password: 's3cret-kafka' },
      tls: { ca: PEM },
    })
  })

  it('the password from DEV_STATS_KAFKA_SASL_PASSWORD_FILE, without its trailing newline', () => {
    const env = { ...SASL, DEV_STATS_KAFKA_SASL_PASSWORD: undefined, DEV_STATS_KAFKA_SASL_PASSWORD_FILE: file('pw', 'from-a-file\n') }
    expect(loadConfig(env as unknown as Record<string, string>).kafka.security.sasl?.password).toBe('from-a-file')
  })

  it('mutual TLS: certificate and key together, mechanism and protocol case-insensitive', () => {
    const s = loadConfig({
      DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'SSL', DEV_STATS_KAFKA_SSL_CERT_FILE: file('c.crt', PEM), DEV_STATS_KAFKA_SSL_KEY_FILE: file('c.key', KEY),
    }).kafka.security
    expect(s).toEqual({ protocol: 'ssl', tls: { cert: PEM, key: KEY } })
    expect(loadConfig({ ...SASL, DEV_STATS_KAFKA_SASL_MECHANISM: 'SCRAM-SHA-256' }).kafka.security.sasl?.mechanism).toBe('scram-sha-256')
  })

  it.each([
    [{ DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'tls' }, 'DEV_STATS_KAFKA_SECURITY_PROTOCOL'],
    [{ ...SASL, DEV_STATS_KAFKA_SASL_MECHANISM: 'gssapi' }, 'DEV_STATS_KAFKA_SASL_MECHANISM'],
    [{ ...SASL, DEV_STATS_KAFKA_SASL_USERNAME: '' }, 'DEV_STATS_KAFKA_SASL_USERNAME'],
    [{ ...SASL, DEV_STATS_KAFKA_SASL_PASSWORD: '' }, 'DEV_STATS_KAFKA_SASL_PASSWORD'],
    [{ ...SASL, DEV_STATS_KAFKA_SASL_PASSWORD_FILE: '/nonexistent' }, 'DEV_STATS_KAFKA_SASL_PASSWORD'],
    [{ ...SASL, DEV_STATS_KAFKA_SASL_PASSWORD: undefined, DEV_STATS_KAFKA_SASL_PASSWORD_FILE: '/nonexistent' }, 'DEV_STATS_KAFKA_SASL_PASSWORD_FILE'],
    [{ DEV_STATS_KAFKA_SASL_USERNAME: 'svc' }, 'DEV_STATS_KAFKA_SASL_USERNAME'],
    [{ DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'sasl_plaintext', ...{ DEV_STATS_KAFKA_SASL_USERNAME: 'u', DEV_STATS_KAFKA_SASL_PASSWORD: 'p' }, DEV_STATS_KAFKA_SSL_CA_FILE: '/x' }, 'DEV_STATS_KAFKA_SSL_CA_FILE'],
    [{ ...SASL, DEV_STATS_KAFKA_SSL_CA_FILE: file('not-pem', 'hello') }, 'DEV_STATS_KAFKA_SSL_CA_FILE'],
    [{ DEV_STATS_KAFKA_SECURITY_PROTOCOL: 'ssl', DEV_STATS_KAFKA_SSL_CERT_FILE: file('only.crt', PEM) }, 'DEV_STATS_KAFKA_SSL_KEY_FILE'],
  ])('%o is an error naming %s', (env, setting) => {
    const e = configError(env as Record<string, string>)
    expect(e.setting).toBe(setting)
    expect(e.message).not.toContain('s3cret-kafka')
  })
})

describe('ClickHouse security settings', () => {
  it('https with a CA file and the password from a file', () => {
    const c = loadConfig({
      DEV_STATS_CLICKHOUSE_URL: 'https://127.0.0.1:18443', DEV_STATS_CLICKHOUSE_CA_FILE: file('ch-ca.crt', PEM),
      DEV_STATS_CLICKHOUSE_PASSWORD_FILE: file('ch-pw', 'ch-s3cret\n'),
    }).clickhouse
    expect(c).toMatchObject({ url: 'https://127.0.0.1:18443', password: 'ch-s3cret', ca: PEM })
  })

  it.each([
    [{ DEV_STATS_CLICKHOUSE_CA_FILE: '/x' }, 'DEV_STATS_CLICKHOUSE_CA_FILE'],
    [{ DEV_STATS_CLICKHOUSE_PASSWORD: 'a', DEV_STATS_CLICKHOUSE_PASSWORD_FILE: '/x' }, 'DEV_STATS_CLICKHOUSE_PASSWORD'],
    [{ DEV_STATS_CLICKHOUSE_URL: 'https://user:ch-s3cret@127.0.0.1:18443' }, 'DEV_STATS_CLICKHOUSE_URL'],
    [{ DEV_STATS_CLICKHOUSE_URL: 'ftp://user:ch-s3cret@127.0.0.1' }, 'DEV_STATS_CLICKHOUSE_URL'],
  ])('%o is an error naming %s, never showing the password', (env, setting) => {
    const e = configError(env)
    expect(e.setting).toBe(setting)
    expect(e.message).not.toContain('ch-s3cret')
  })
})

it('redactSecrets masks every configured secret in a message', () => {
  const config = loadConfig({ ...SASL, DEV_STATS_CLICKHOUSE_PASSWORD: 'ch-s3cret' })
  expect(redactSecrets('login s3cret-kafka / ch-s3cret failed', config)).toBe('login *** / *** failed')
})
