import { randomUUID } from 'node:crypto'
import { exportJWK, exportSPKI, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose'

/** An HS256 secret of the minimum length the read API accepts. */
export const TEST_SECRET = 'dev-stats-read-api-test-secret-0123456789'
export const secretBytes = (text = TEST_SECRET): Uint8Array => new TextEncoder().encode(text)

export interface TokenOptions {
  readonly alg?: string
  readonly kid?: string
  readonly issuer?: string
  readonly audience?: string
  /** Seconds from now; undefined leaves exp out only when `noExp`. */
  readonly expiresIn?: number
  readonly noExp?: boolean
  readonly notBefore?: number
}

const now = () => Math.floor(Date.now() / 1000)

/** A signed JWT with the given claims; exp 5 minutes ahead unless told otherwise. */
export const signToken = async (claims: Record<string, unknown>, key: Uint8Array | CryptoKey, o: TokenOptions = {}): Promise<string> => {
  let jwt = new SignJWT(claims).setProtectedHeader({ alg: o.alg ?? 'HS256', ...(o.kid ? { kid: o.kid } : {}) }).setIssuedAt()
  if (!o.noExp) jwt = jwt.setExpirationTime(now() + (o.expiresIn ?? 300))
  if (o.notBefore !== undefined) jwt = jwt.setNotBefore(now() + o.notBefore)
  if (o.issuer) jwt = jwt.setIssuer(o.issuer)
  if (o.audience) jwt = jwt.setAudience(o.audience)
  return jwt.sign(key)
}

/** `alg: none`: a header and claims with an empty signature, as an attacker would send. */
export const unsignedToken = (claims: Record<string, unknown>): string => {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ ...claims, exp: now() + 300 })}.`
}

export interface TestKeyPair {
  readonly alg: 'RS256' | 'ES256'
  readonly privateKey: CryptoKey
  readonly publicPem: string
  readonly jwk: JWK
}

export const keyPair = async (alg: 'RS256' | 'ES256', kid = randomUUID()): Promise<TestKeyPair> => {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true })
  return { alg, privateKey, publicPem: await exportSPKI(publicKey), jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } }
}
