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

/**
 * A server that never answers (a silent, half-open connection) cannot end the read itself: the
 * client gives up this long after the server's own limit, instead of after its request timeout.
 */
export const CLIENT_GRACE_MS = 2000

/**
 * The session's select with the server ending each read after `timeoutSeconds` (0: no limit), and
 * the client `CLIENT_GRACE_MS` later, both as ReadTimedOut.
 */
export const timeLimitedSelect =
  (session: ClickHouseSession, timeoutSeconds: number) =>
  async <T>(fragment: SqlFragment, settings: ClickHouseSettings = {}): Promise<T[]> => {
    if (timeoutSeconds <= 0) return session.select<T>(fragment, settings)
    const signal = AbortSignal.timeout(timeoutSeconds * 1000 + CLIENT_GRACE_MS)
    try {
      return await session.select<T>(fragment, { ...settings, max_execution_time: timeoutSeconds }, signal)
    } catch (e) {
      if (signal.aborted || (e instanceof StoreError && TIME_LIMIT_CODES.has(e.code))) throw new ReadTimedOut(timeoutSeconds, e)
      throw e
    }
  }
