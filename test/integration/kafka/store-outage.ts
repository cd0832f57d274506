import { expect } from 'vitest'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { BrokerRecord } from '../../../src/application/ports/broker.port.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import { committedButNotStored, committedOffsets, sumOf, type Position } from './group-offsets.js'

// What the two store-outage tests (e2e-store-outage, e2e-store-outage-volume) share: a sink that
// records which inserts the server confirmed, and the final check that every record is stored once
// logically and nothing is committed ahead of the store. The server each stops is one of its own
// (OwnClickHouse, stopped and started without blocking the engine and the Kafka client).

/** A sink in front of `store`: `confirmed` gets the FactIds of every insert the server confirmed, in order. */
export const confirmingSink = (store: FactStore) => {
  const confirmed: string[] = []
  let failedInserts = 0
  const sink: FactStore = {
    append: async (rows, at) => {
      try {
        await store.append(rows, at)
      } catch (e) {
        failedInserts++
        throw e
      }
      for (const r of rows) confirmed.push((r.row as { factId: string }).factId)
    },
  }
  return { sink, confirmed, failedInserts: () => failedInserts }
}

/** Every published record stored once logically, no stranger, every one committed, none committed ahead of the store. */
export const expectEveryRecordOnce = async (
  session: ClickHouseSession, database: string, records: readonly Pick<BrokerRecord, 'headers'>[], groupId: string, topic: string,
  positions: Map<string, Position>, log: (stored: { physical: number; logical: number; missing: number; committed: number }) => void,
): Promise<void> => {
  const ids = (await session.select<{ FactId: string }>(sql`SELECT FactId FROM ${ident(database)}.session_facts`)).map((r) => r.FactId)
  const distinct = new Set(ids)
  const expected = new Set(records.map((r) => r.headers['ce_id'] as string))
  const missing = [...expected].filter((id) => !distinct.has(id))
  const committed = await committedOffsets(groupId, topic)
  log({ physical: ids.length, logical: distinct.size, missing: missing.length, committed: sumOf(committed) })
  expect(missing).toEqual([])
  expect([...distinct].filter((id) => !expected.has(id))).toEqual([])
  expect(sumOf(committed)).toBe(records.length)
  expect(committedButNotStored(committed, positions, distinct)).toEqual([])
}
