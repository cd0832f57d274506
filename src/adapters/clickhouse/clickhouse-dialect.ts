import type { ClickHouseSettings } from '@clickhouse/client'
import type { Dialect } from './sql-fragment.js'

/**
 * Server-side query parameters ({name:Type}) arrived in ClickHouse 19.x; the Debian 18.16
 * server rejects them ("Unknown setting param_x"). Anything older than 20 gets the inline
 * renderer, which is correct everywhere, so being conservative costs nothing.
 */
export const dialectFor = (version: string): Dialect => {
  const major = Number(/^(\d+)\./.exec(version)?.[1] ?? 0)
  return major >= 20 ? 'bound' : 'inline'
}

/** `async_insert` arrived in ClickHouse 21.11; an older server refuses the unknown setting. */
const knowsAsyncInsert = (version: string): boolean => {
  const m = /^(\d+)\.(\d+)\./.exec(version)
  return m !== null && (Number(m[1]) > 21 || (Number(m[1]) === 21 && Number(m[2]) >= 11))
}

/**
 * Pinned on every insert of the ingest, whatever the server's profile says: an acknowledged insert
 * is stored, not buffered (commit-after-insert and the serving lookups rest on it, docs/clickhouse.md).
 */
export const pinnedInsertSettings = (version: string): ClickHouseSettings => (knowsAsyncInsert(version) ? { async_insert: 0 } : {})
