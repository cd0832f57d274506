import type { StorePressure } from '../../application/ports/store-pressure.port.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { name, sql } from './sql-fragment.js'
import { timeLimitedSelect } from './time-limited-select.js'

/** The server ends a read of system.parts after this long (the client 2 s later): a probe never holds a connection long. */
const PARTS_READ_SECONDS = 3

/** The probe decides backpressure and ends retries' backoffs (StoreRecovery): never paused behind reads. */
const UNPAUSED = { priority: '0' }

/**
 * Active parts per partition, the figure ClickHouse's `parts_to_delay_insert` (150 by default)
 * and `parts_to_throw_insert` (300: code 252) apply to; the largest over the database's tables.
 * This server's parts only (on a cluster, the replica it talks to).
 */
export class ClickHouseStorePressure implements StorePressure {
  private readonly select: ReturnType<typeof timeLimitedSelect>

  constructor(private readonly session: ClickHouseSession) {
    this.select = timeLimitedSelect(session, PARTS_READ_SECONDS)
  }

  async activePartsPeak(): Promise<number> {
    const [row] = await this.select<{ peak: string | number }>(sql`
      SELECT max(c) AS peak FROM (
        SELECT count() AS c FROM system.parts
        WHERE database = ${name(this.session.database)} AND active
        GROUP BY table, partition)`, UNPAUSED)
    return Number(row?.peak ?? 0)
  }
}
