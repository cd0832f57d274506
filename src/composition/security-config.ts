import { readFileSync } from 'node:fs'
import type { KafkaSecurity, KafkaSecurityProtocol, SaslMechanism } from '../adapters/kafka/shared/kafka-security.js'
import { ConfigError } from './config-error.js'

type Env = Readonly<Record<string, string | undefined>>

const PROTOCOLS: readonly KafkaSecurityProtocol[] = ['plaintext', 'ssl', 'sasl_ssl', 'sasl_plaintext']
const MECHANISMS: readonly SaslMechanism[] = ['scram-sha-256', 'scram-sha-512', 'plain']

const fileText = (name: string, path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    throw new ConfigError(name, `cannot read "${path}": ${(e as NodeJS.ErrnoException).code ?? String(e)}`)
  }
}

/**
 * A secret from `NAME` or from the file `NAME_FILE` names (the convention of container
 * platforms), never both. One trailing newline of the file is dropped. Error messages name the
 * setting and the file, never the value.
 */
export const secret = (env: Env, name: string): string | undefined => {
  const file = env[`${name}_FILE`]
  if (file && env[name] !== undefined) throw new ConfigError(name, `and ${name}_FILE are both set; set only one`)
  if (file) return fileText(`${name}_FILE`, file).replace(/\r?\n$/, '')
  return env[name]
}

/** A PEM file's text; the setting is named when it is unreadable or not PEM. */
export const pemFile = (env: Env, name: string): string | undefined => {
  const path = env[name]
  if (!path) return undefined
  const text = fileText(name, path)
  if (!/-----BEGIN [A-Z0-9 ]+-----/.test(text)) throw new ConfigError(name, `"${path}" is not a PEM file`)
  return text
}

const lower = <T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T => {
  const value = (env[name] || fallback).toLowerCase()
  if (!(allowed as readonly string[]).includes(value)) throw new ConfigError(name, `must be one of ${allowed.join('|')}, got "${env[name]}"`)
  return value as T
}

const forbidUnless = (env: Env, names: readonly string[], allowed: boolean, why: string): void => {
  const set = names.find((n) => env[n] !== undefined && env[n] !== '')
  if (set && !allowed) throw new ConfigError(set, `is set, but ${why}`)
}

const SASL_SETTINGS = ['DEV_STATS_KAFKA_SASL_MECHANISM', 'DEV_STATS_KAFKA_SASL_USERNAME', 'DEV_STATS_KAFKA_SASL_PASSWORD', 'DEV_STATS_KAFKA_SASL_PASSWORD_FILE']
const TLS_SETTINGS = [
  'DEV_STATS_KAFKA_SSL_CA_FILE', 'DEV_STATS_KAFKA_SSL_CERT_FILE', 'DEV_STATS_KAFKA_SSL_KEY_FILE',
  'DEV_STATS_KAFKA_SSL_KEY_PASSWORD', 'DEV_STATS_KAFKA_SSL_KEY_PASSWORD_FILE',
]

/** DEV_STATS_KAFKA_SECURITY_PROTOCOL and its SASL / TLS settings (docs/security.md). */
export const kafkaSecurity = (env: Env): KafkaSecurity => {
  const protocol = lower(env, 'DEV_STATS_KAFKA_SECURITY_PROTOCOL', PROTOCOLS, 'plaintext')
  const withSasl = protocol === 'sasl_ssl' || protocol === 'sasl_plaintext'
  const withTls = protocol === 'ssl' || protocol === 'sasl_ssl'
  forbidUnless(env, SASL_SETTINGS, withSasl, `DEV_STATS_KAFKA_SECURITY_PROTOCOL=${protocol} does not use SASL (sasl_ssl or sasl_plaintext do)`)
  forbidUnless(env, TLS_SETTINGS, withTls, `DEV_STATS_KAFKA_SECURITY_PROTOCOL=${protocol} does not use TLS (ssl or sasl_ssl do)`)
  const security: { -readonly [K in keyof KafkaSecurity]: KafkaSecurity[K] } = { protocol }
  if (withSasl) {
    const username = env.DEV_STATS_KAFKA_SASL_USERNAME
    const password = secret(env, 'DEV_STATS_KAFKA_SASL_PASSWORD')
    if (!username) throw new ConfigError('DEV_STATS_KAFKA_SASL_USERNAME', `is required with DEV_STATS_KAFKA_SECURITY_PROTOCOL=${protocol}`)
    if (!password) throw new ConfigError('DEV_STATS_KAFKA_SASL_PASSWORD', `(or DEV_STATS_KAFKA_SASL_PASSWORD_FILE) is required with DEV_STATS_KAFKA_SECURITY_PROTOCOL=${protocol}`)
    security.sasl = { mechanism: lower(env, 'DEV_STATS_KAFKA_SASL_MECHANISM', MECHANISMS, 'scram-sha-512'), username, password }
  }
  if (withTls) {
    const cert = pemFile(env, 'DEV_STATS_KAFKA_SSL_CERT_FILE')
    const key = pemFile(env, 'DEV_STATS_KAFKA_SSL_KEY_FILE')
    if (Boolean(cert) !== Boolean(key)) {
      throw new ConfigError(cert ? 'DEV_STATS_KAFKA_SSL_KEY_FILE' : 'DEV_STATS_KAFKA_SSL_CERT_FILE', 'is required too: a client certificate goes with its key')
    }
    const ca = pemFile(env, 'DEV_STATS_KAFKA_SSL_CA_FILE')
    const keyPassword = secret(env, 'DEV_STATS_KAFKA_SSL_KEY_PASSWORD')
    security.tls = { ...(ca ? { ca } : {}), ...(cert && key ? { cert, key } : {}), ...(keyPassword ? { keyPassword } : {}) }
  }
  return security
}

/** DEV_STATS_CLICKHOUSE_PASSWORD (or _FILE) and, for an https:// URL, DEV_STATS_CLICKHOUSE_CA_FILE. */
export const clickhouseSecrets = (env: Env): { readonly password: string; readonly ca?: string } => {
  const https = (env.DEV_STATS_CLICKHOUSE_URL ?? '').toLowerCase().startsWith('https:')
  forbidUnless(env, ['DEV_STATS_CLICKHOUSE_CA_FILE'], https, 'DEV_STATS_CLICKHOUSE_URL is not an https:// URL')
  const ca = pemFile(env, 'DEV_STATS_CLICKHOUSE_CA_FILE')
  return { password: secret(env, 'DEV_STATS_CLICKHOUSE_PASSWORD') ?? '', ...(ca ? { ca } : {}) }
}

/** A URL with any user info masked, for messages: credentials belong in their own settings. */
export const redactUrl = (raw: string): string => raw.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1***@')
