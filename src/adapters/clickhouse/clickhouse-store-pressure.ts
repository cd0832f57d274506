import type { StorePressure } from '../../application/ports/store-pressure.port.js'
import type { ClickHouseSession } from './clickhouse-session.js'
import { name, sql } from './sql-fragment.js'

/**
 * Active parts per partition, the figure ClickHouse's `parts_to_delay_insert` (150 by default)
 * and `parts_to_throw_insert` (300: code 252) apply to; the largest over the database's tables.
 * This server's parts only (on a cluster, the replica it talks to).
 */
export class ClickHouseStorePressure implements StorePressure {
  constructor(private readonly session: ClickHouseSession) {}

  async activePartsPeak(): Promise<number> {
    const [row] = await this.session.select<{ peak: string | number }>(sql`
      SELECT max(c) AS peak FROM (
        SELECT count() AS c FROM system.parts
        WHERE database = ${name(this.session.database)} AND active
        GROUP BY table, partition)`)
    return Number(row?.peak ?? 0)
  }
}
