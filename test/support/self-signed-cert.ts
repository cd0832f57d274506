import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A throwaway key and self-signed certificate for 127.0.0.1 (openssl), for a real TLS listener in a test. */
export interface SelfSignedCert {
  readonly key: Buffer
  readonly cert: Buffer
  remove(): void
}

export const selfSignedCert = (): SelfSignedCert => {
  const dir = mkdtempSync(join(tmpdir(), 'dev-stats-cert-'))
  const r = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`openssl could not make a test certificate: ${r.stderr}`)
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')), remove: () => rmSync(dir, { recursive: true, force: true }) }
}
