import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import type { ClickHouseSession } from '../../../src/adapters/clickhouse/clickhouse-session.js'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, guid, sessionEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

// A batch whose sessions span 150 months: a current ClickHouse refuses more than 100 partitions
// in one insert (code 252, max_partitions_per_insert_block; 18.16 has no such limit). No wait
// fixes that, so the engine splits the batch instead of retrying it forever: all stored.
const DATABASE = 'i8_many_partitions'
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-partitions-'))
const sessions = sessionEndedHandler()
const config = { maxBatchRows: 1000, flushIntervalMs: 1000, sinkBackoff: { initialMs: 50, maxMs: 400 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } }
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe.each([
  ['18.16 server', serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE }), false],
  ['chdb', embeddedSession({ path: dir, database: DATABASE }), true],
] as const)('%s', (_, session: ClickHouseSession, refusesTheBlock) => {
  let h: Harness | undefined
  afterAll(async () => {
    await h?.stopAll()
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(DATABASE)}`)
    await session.close()
  })

  it(`150 months in one batch: all stored, nothing dead-lettered, no retry${refusesTheBlock ? ' (the server refused the block with 252 and the engine split it)' : ''}`, async () => {
    await resetDatabase(session)
    const harness = (h = new Harness([sessions], config))
    harness.sink = new ClickHouseFactStore(session)
    const months = Array.from({ length: 150 }, (_, i) => new Date(Date.UTC(2000, i, 15)).toISOString())
    const ids = months.map(() => guid())
    harness.publish(...months.map((m, i) => binaryRecord(sessions.topic, sessionEndedPayload({ CreatedAt: m, LastActivityAt: m }), { messageId: ids[i], key: 'one-partition' })))
    await harness.start()
    await waitUntil(() => harness.caughtUp(sessions), 60_000, 'all 150 committed')
    const stored = await session.select<{ FactId: string }>(sql`SELECT FactId FROM ${ident(DATABASE)}.session_facts`)
    expect(new Set(stored.map((r) => r.FactId))).toEqual(new Set(ids))
    expect(harness.dlq(sessions)).toEqual([])
    expect(harness.engine(sessions.name).stats.sinkRetries).toBe(0)
    const refusedCodes = harness.logger.lines.filter((l) => l.message.startsWith('refused: insert')).map((l) => /ClickHouse error (\d+)/.exec(String(l.fields.err))?.[1])
    expect(refusedCodes.includes('252')).toBe(refusesTheBlock)
  })
})
