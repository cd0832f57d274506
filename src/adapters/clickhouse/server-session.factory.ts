import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { ClickHouseSession, type SessionOptions } from './clickhouse-session.js'
import { probeTls } from './clickhouse-tls-probe.js'

export interface ServerSettings {
  readonly url: string
  readonly user: string
  readonly password: string
  readonly database: string
  /** A cluster name from <remote_servers>: tables are Replicated + Distributed (docs/clickhouse.md). */
  readonly cluster?: string
  /** PEM text of the CA that signed an https:// server's certificate; absent: the system's trust store. */
  readonly ca?: string
  /** A request ends with an error when its connection carries nothing this long (default 30 s). */
  readonly requestTimeoutMs?: number
}

export const DEFAULT_CLICKHOUSE_REQUEST_TIMEOUT_MS = 30_000

/**
 * A ClickHouse server over HTTP or HTTPS. No default database on the client: tables are always named
 * `<database>.<table>`, so the same client works before the migrations created the database.
 * `maxOpenConnections`: the client's socket pool (its default, 10, when absent).
 */
export const serverSession = (settings: ServerSettings, options: Omit<SessionOptions, 'database'> = {}, maxOpenConnections?: number): ClickHouseSession =>
  new ClickHouseSession(
    async () => {
      if (settings.url.toLowerCase().startsWith('https:')) await probeTls(settings.url, settings.ca)
      return createClient({
        url: settings.url,
        username: settings.user,
        password: settings.password,
        ...(settings.ca ? { tls: { ca_cert: Buffer.from(settings.ca) } } : {}),
        request_timeout: settings.requestTimeoutMs ?? DEFAULT_CLICKHOUSE_REQUEST_TIMEOUT_MS,
        ...(maxOpenConnections ? { max_open_connections: maxOpenConnections } : {}),
        // Failures become StoreErrors and are logged by the engine; the client's own logging is noise.
        log: { level: ClickHouseLogLevel.OFF },
      })
    },
    { ...options, database: settings.database, server: serverOf(settings.url), ...(settings.cluster ? { cluster: settings.cluster, credentials: { user: settings.user, password: settings.password } } : {}) },
  )

const serverOf = (url: string): { address: string; port: number } => {
  const u = new URL(url)
  return { address: u.hostname, port: u.port !== '' ? Number(u.port) : u.protocol === 'https:' ? 443 : 80 }
}
