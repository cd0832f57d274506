import type { ClickHouseSettings } from '@clickhouse/client'
import { ReadTimedOut } from '../../application/ports/read-model.port.js'
import { StoreError } from '../../application/ports/store-error.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import type { SqlFragment } from './sql-fragment.js'

/**
 * How the server ends a read for its max_execution_time: 159 (TIMEOUT_EXCEEDED) once past it, or
 * 160 (TOO_SLOW) as soon as it estimates the read would run past it, which 18.16 does where a
 * profile sets timeout_before_checking_execution_speed (error-classification.test.ts).
 */
const TIME_LIMIT_CODES: ReadonlySet<string> = new Set(['CLICKHOUSE_159', 'CLICKHOUSE_160'])

/** The session's select with the server ending each read after `timeoutSeconds` (0: no limit), as ReadTimedOut. */
export const timeLimitedSelect =
  (session: ClickHouseSession, timeoutSeconds: number) =>
  async <T>(fragment: SqlFragment, settings: ClickHouseSettings = {}): Promise<T[]> => {
    try {
      return await session.select<T>(fragment, timeoutSeconds > 0 ? { ...settings, max_execution_time: timeoutSeconds } : settings)
    } catch (e) {
      if (e instanceof StoreError && TIME_LIMIT_CODES.has(e.code)) throw new ReadTimedOut(timeoutSeconds, e)
      throw e
    }
  }
