import { createPublicKey, type KeyObject } from 'node:crypto'
import * as E from 'fp-ts/lib/Either.js'
import { createRemoteJWKSet, errors, jwtVerify, type JWTVerifyGetKey } from 'jose'
import type { DeveloperActor } from '../../../application/read/actor.js'
import { asGuid } from '../../../domain/guid.js'

/** Where the signing key comes from; the algorithm is the key's, never the token header's choice. */
export type TokenKey =
  /** HS256 with a shared secret (at least 32 bytes). */
  | { readonly kind: 'secret'; readonly secret: Uint8Array }
  /** RS256 (an RSA key) or ES256 (an EC P-256 key): an SPKI public key or an X.509 certificate, PEM. */
  | { readonly kind: 'public-key'; readonly pem: string }
  /** RS256 / ES256 keys of a JWKS document, fetched when a token names an unknown `kid` (rotation), cached meanwhile. */
  | { readonly kind: 'jwks'; readonly url: URL }

export interface TokenSettings {
  readonly key: TokenKey
  /** Checked when set: the token's `iss` must equal it. */
  readonly issuer?: string
  /** Checked when set: the token's `aud` must contain it. */
  readonly audience?: string
  /** The claim holding the DeveloperId, a GUID (default `developer_id`). */
  readonly developerClaim?: string
  /** Clock skew allowed on `exp` and `nbf` (default 30 s). */
  readonly clockToleranceSeconds?: number
}

/** Why a request has no actor. `key-unavailable`: the JWKS could not be fetched, so no token can be checked now. */
export interface TokenRejection {
  readonly code: 'token-missing' | 'token-invalid' | 'key-unavailable'
  readonly detail: string
}

/** The `Authorization` header in, the actor of a verified token out; nothing else can name an actor. */
export type TokenVerifier = (authorization: string | undefined) => Promise<E.Either<TokenRejection, DeveloperActor>>

export const DEFAULT_DEVELOPER_CLAIM = 'developer_id'
export const DEFAULT_CLOCK_TOLERANCE_SECONDS = 30
const JWKS_ALGORITHMS = ['RS256', 'ES256']

/** The JWS algorithm of a PEM public key or certificate: RS256 for RSA, ES256 for EC P-256, undefined otherwise. */
export const publicKeyAlgorithm = (pem: string): { readonly key: KeyObject; readonly algorithm: 'RS256' | 'ES256' } | undefined => {
  let key: KeyObject
  try {
    key = createPublicKey(pem)
  } catch {
    return undefined
  }
  if (key.asymmetricKeyType === 'rsa') return { key, algorithm: 'RS256' }
  if (key.asymmetricKeyType === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return { key, algorithm: 'ES256' }
  return undefined
}

const keyOf = (key: TokenKey): { readonly key: KeyObject | Uint8Array | JWTVerifyGetKey; readonly algorithms: string[] } => {
  switch (key.kind) {
    case 'secret':
      return { key: key.secret, algorithms: ['HS256'] }
    case 'public-key': {
      const parsed = publicKeyAlgorithm(key.pem)
      if (!parsed) throw new TypeError('the public key is neither RSA nor EC P-256')
      return { key: parsed.key, algorithms: [parsed.algorithm] }
    }
    case 'jwks':
      // Cached for 10 minutes; an unknown kid refetches at most every 30 s, so a rotated key is picked up.
      return { key: createRemoteJWKSet(key.url, { cacheMaxAge: 600_000, cooldownDuration: 30_000, timeoutDuration: 5000 }), algorithms: JWKS_ALGORITHMS }
  }
}

const invalid = (detail: string): E.Either<TokenRejection, never> => E.left({ code: 'token-invalid', detail })

/** A jose failure as the reason a client may be told; the token's content is never echoed. */
const rejectionOf = (e: unknown, remoteKeys: boolean): E.Either<TokenRejection, never> => {
  if (e instanceof errors.JWTExpired) return invalid('the token has expired')
  if (e instanceof errors.JWTClaimValidationFailed) {
    if (e.claim === 'nbf') return invalid('the token is not valid yet')
    if (e.claim === 'iss') return invalid('the token has the wrong issuer')
    if (e.claim === 'aud') return invalid('the token has the wrong audience')
    return invalid(`the token's "${e.claim}" claim is invalid`)
  }
  if (e instanceof errors.JOSEAlgNotAllowed) return invalid("the token's algorithm is not the key's")
  if (e instanceof errors.JWSSignatureVerificationFailed) return invalid('the token signature does not verify')
  if (e instanceof errors.JWKSNoMatchingKey || e instanceof errors.JWKSMultipleMatchingKeys) return invalid('no single key of the key set matches the token')
  // A JWKS that cannot be fetched or read: a key problem, not the client's (fetch fails with a plain error).
  if (remoteKeys && (e instanceof errors.JWKSTimeout || e instanceof errors.JWKSInvalid || !(e instanceof errors.JOSEError))) {
    return E.left({ code: 'key-unavailable', detail: 'the signing keys cannot be fetched right now' })
  }
  return invalid('the token is malformed')
}

const BEARER = /^Bearer +(\S+)\s*$/i

/** A verifier for one key source; `exp` is required, `alg` must be the key's (so `none` and HS/RS confusion fail). */
export const createTokenVerifier = (settings: TokenSettings): TokenVerifier => {
  const { key, algorithms } = keyOf(settings.key)
  const claim = settings.developerClaim ?? DEFAULT_DEVELOPER_CLAIM
  const options = {
    algorithms,
    requiredClaims: ['exp'],
    clockTolerance: settings.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS,
    ...(settings.issuer === undefined ? {} : { issuer: settings.issuer }),
    ...(settings.audience === undefined ? {} : { audience: settings.audience }),
  }
  return async (authorization) => {
    const token = authorization === undefined ? undefined : BEARER.exec(authorization)?.[1]
    if (token === undefined) return E.left({ code: 'token-missing', detail: 'a bearer token is required' })
    let payload: Record<string, unknown>
    try {
      // The overloads of jwtVerify differ by key kind; the union is one of them at run time.
      payload = (await jwtVerify(token, key as Uint8Array, options)).payload
    } catch (e) {
      return rejectionOf(e, settings.key.kind === 'jwks')
    }
    const developerId = asGuid(payload[claim])
    if (developerId === undefined) return invalid(`the token's "${claim}" claim is missing or not a GUID`)
    return E.right({ developerId })
  }
}
