import { mkdirSync } from 'node:fs'
import { ClickHouseLogLevel, createClient } from '@clickhouse/client'
import { EmbeddedStoreMissing } from './chdb-client.js'
import { ClickHouseSession, type SessionOptions } from './clickhouse-session.js'

export interface EmbeddedSettings {
  /** Data directory of the in-process ClickHouse (chdb); created if missing. */
  readonly path: string
  readonly database: string
}

/**
 * ClickHouse in-process through chdb. The native library (~550 MB) is imported on first use
 * only, so processes on the memory or server store never load it. chdb allows one data
 * directory per process: close this session before opening another path.
 */
export const embeddedSession = (settings: EmbeddedSettings, options: Omit<SessionOptions, 'database'> = {}): ClickHouseSession =>
  new ClickHouseSession(
    async () => {
      mkdirSync(settings.path, { recursive: true })
      const { createChdbConnection } = await import('chdb/connection').catch((e: unknown) => {
        throw new EmbeddedStoreMissing(e)
      })
      // chdb types its connection against its own copy of @clickhouse/client-common; same shape.
      const connection = createChdbConnection({ path: settings.path }) as unknown as NonNullable<NonNullable<Parameters<typeof createClient>[0]>['connection']>
      return createClient({ connection, log: { level: ClickHouseLogLevel.OFF } })
    },
    { ...options, database: settings.database },
  )
