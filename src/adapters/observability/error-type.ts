import { StoreError } from '../../application/ports/store-error.js'

/**
 * OpenTelemetry's error.type of a failure: low cardinality, never a message (a store's message can
 * quote the refused value). A store failure is its code (`CLICKHOUSE_27`, `ECONNREFUSED`); a
 * wrapper with a more telling cause is the cause's type (`KafkaJSConnectionError`); else the class.
 */
export const errorTypeOf = (e: unknown): string => {
  if (e instanceof StoreError) return e.code
  if (!(e instanceof Error)) return '_OTHER'
  const cause = e.cause
  if (cause instanceof Error && cause !== e && nameOf(cause) !== 'Error') return errorTypeOf(cause)
  return nameOf(e)
}

const nameOf = (e: Error): string => (e.name !== 'Error' ? e.name : e.constructor.name)

/** ClickHouse's own error number (db.response.status_code) when the failure carries one. */
export const clickhouseStatusOf = (e: unknown): string | undefined =>
  e instanceof StoreError && e.code.startsWith('CLICKHOUSE_') ? e.code.slice('CLICKHOUSE_'.length) : undefined
