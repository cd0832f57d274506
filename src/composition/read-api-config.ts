import { DEFAULT_CLOCK_TOLERANCE_SECONDS, DEFAULT_DEVELOPER_CLAIM, publicKeyAlgorithm, type TokenKey, type TokenSettings } from '../adapters/http/read-api/bearer-token.js'
import { ConfigError } from './config-error.js'
import type { Env } from './config.js'
import { pemFile, secret } from './security-config.js'

const SECRET = 'DEV_STATS_READ_API_JWT_SECRET'
const SECRET_FILE = 'DEV_STATS_READ_API_JWT_SECRET_FILE'
const PUBLIC_KEY = 'DEV_STATS_READ_API_JWT_PUBLIC_KEY_FILE'
const JWKS = 'DEV_STATS_READ_API_JWKS_URL'
const RATE_LIMIT = 'DEV_STATS_READ_API_RATE_LIMIT'
const RATE_WINDOW = 'DEV_STATS_READ_API_RATE_WINDOW_SECONDS'
const CORS_ORIGINS = 'DEV_STATS_READ_API_CORS_ORIGINS'
const MIN_SECRET_BYTES = 32
const MAX_TOLERANCE_SECONDS = 300

const set = (env: Env, name: string): boolean => env[name] !== undefined && env[name] !== ''

/** HS256 needs a key at least as long as its hash (RFC 7518 §3.2). */
const secretKey = (env: Env): TokenKey => {
  const text = secret(env, SECRET) ?? ''
  const bytes = new TextEncoder().encode(text)
  const name = set(env, SECRET_FILE) ? SECRET_FILE : SECRET
  if (bytes.length < MIN_SECRET_BYTES) throw new ConfigError(name, `must hold at least ${MIN_SECRET_BYTES} bytes for HS256, got ${bytes.length}`)
  return { kind: 'secret', secret: bytes }
}

const publicKey = (env: Env): TokenKey => {
  const pem = pemFile(env, PUBLIC_KEY) as string
  if (!publicKeyAlgorithm(pem)) throw new ConfigError(PUBLIC_KEY, `"${env[PUBLIC_KEY]}" is not an RSA or EC P-256 public key or certificate (RS256 / ES256)`)
  return { kind: 'public-key', pem }
}

const jwksUrl = (env: Env): TokenKey => {
  const raw = env[JWKS] as string
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol)) throw new ConfigError(JWKS, `must be an http(s) URL, got "${raw}"`)
  return { kind: 'jwks', url }
}

const claimName = (env: Env, name: string): string => {
  const raw = env[name] || DEFAULT_DEVELOPER_CLAIM
  if (!/^\S{1,200}$/.test(raw)) throw new ConfigError(name, `must be a claim name without spaces, got "${raw}"`)
  return raw
}

const tolerance = (env: Env, name: string): number => {
  const raw = env[name]
  if (raw === undefined || raw === '') return DEFAULT_CLOCK_TOLERANCE_SECONDS
  const n = /^\d{1,3}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!(n >= 0 && n <= MAX_TOLERANCE_SECONDS)) throw new ConfigError(name, `must be 0-${MAX_TOLERANCE_SECONDS} seconds, got "${raw}"`)
  return n
}

/**
 * The read API's token settings (DEV_STATS_READ_API_*), or undefined when no key is set: then the
 * API is not served at all. Exactly one key source; issuer/audience/claim, rate limit or CORS
 * settings without a key are an error rather than an API silently left off.
 */
export const readApiSettings = (env: Env = process.env): TokenSettings | undefined => {
  const sources = [
    ...(set(env, SECRET) || set(env, SECRET_FILE) ? [[set(env, SECRET_FILE) ? SECRET_FILE : SECRET, secretKey] as const] : []),
    ...(set(env, PUBLIC_KEY) ? [[PUBLIC_KEY, publicKey] as const] : []),
    ...(set(env, JWKS) ? [[JWKS, jwksUrl] as const] : []),
  ]
  const others = ['DEV_STATS_READ_API_ISSUER', 'DEV_STATS_READ_API_AUDIENCE', 'DEV_STATS_READ_API_DEVELOPER_CLAIM', 'DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS', RATE_LIMIT, RATE_WINDOW, CORS_ORIGINS]
  if (sources.length === 0) {
    const orphan = others.find((n) => set(env, n))
    if (orphan) throw new ConfigError(orphan, `is set, but no key is: set ${SECRET_FILE}, ${PUBLIC_KEY} or ${JWKS}`)
    return undefined
  }
  const [first, second] = sources
  if (second) throw new ConfigError(second[0], `and ${first?.[0]} are both set; set one key source only`)
  const [, keyOf] = first as (typeof sources)[number]
  return {
    key: keyOf(env),
    ...(set(env, 'DEV_STATS_READ_API_ISSUER') ? { issuer: env.DEV_STATS_READ_API_ISSUER } : {}),
    ...(set(env, 'DEV_STATS_READ_API_AUDIENCE') ? { audience: env.DEV_STATS_READ_API_AUDIENCE } : {}),
    developerClaim: claimName(env, 'DEV_STATS_READ_API_DEVELOPER_CLAIM'),
    clockToleranceSeconds: tolerance(env, 'DEV_STATS_READ_API_CLOCK_TOLERANCE_SECONDS'),
  }
}

const wholeIn = (env: Env, name: string, fallback: number, max: number): number => {
  const raw = env[name]
  if (raw === undefined || raw.trim() === '') return fallback
  const n = /^\d{1,9}$/.test(raw.trim()) ? Number(raw) : Number.NaN
  if (!(n >= 0 && n <= max)) throw new ConfigError(name, `must be a whole number 0-${max}, got "${raw}"`)
  return n
}

/** An origin as browsers send it: scheme, host and port, nothing after. */
const origin = (raw: string): string => {
  const url = URL.canParse(raw) ? new URL(raw) : undefined
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.origin !== raw) throw new ConfigError(CORS_ORIGINS, `must list origins such as https://dashboards.example.com (scheme, host, port; no path), got "${raw}"`)
  return raw
}

/**
 * How the read API protects the store over HTTP: at most DEV_STATS_READ_API_RATE_LIMIT requests
 * (default 60, 0: no limit) per verified developer per window of DEV_STATS_READ_API_RATE_WINDOW_SECONDS
 * (default 10), and CORS for the origins of DEV_STATS_READ_API_CORS_ORIGINS (none by default).
 */
export const readApiHttpSettings = (env: Env = process.env): { readonly rateLimit?: { readonly max: number; readonly windowMs: number }; readonly corsOrigins: readonly string[] } => {
  const max = wholeIn(env, RATE_LIMIT, 60, 1_000_000)
  const windowSeconds = wholeIn(env, RATE_WINDOW, 10, 3600)
  if (windowSeconds === 0) throw new ConfigError(RATE_WINDOW, 'must be 1-3600 seconds, got "0"')
  const corsOrigins = (env[CORS_ORIGINS] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '').map(origin)
  return { ...(max > 0 ? { rateLimit: { max, windowMs: windowSeconds * 1000 } } : {}), corsOrigins }
}
