import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, guid, sessionEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

// Spec §4 "rows the store rejects", on the real 18.16 server: a test database whose
// session_facts.SourceEventId was narrowed from String to UUID refuses the three records whose
// message id is not a UUID (18.16 answers code 27, CANNOT_PARSE_INPUT_ASSERTION_FAILED); the other 997 must land.
const DATABASE = 'i8_store_rejected'
const sessions = sessionEndedHandler()
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)
const config = { maxBatchRows: 1000, flushIntervalMs: 3000, sinkBackoff: { initialMs: 50, maxMs: 400 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } }

const storedIds = async (): Promise<string[]> =>
  (await session.select<{ FactId: string }>(sql`SELECT FactId FROM ${db}.session_facts`)).map((r) => r.FactId)

describe('ClickHouse 18.16 refuses 3 rows of a batch of 1,000', () => {
  let h: Harness

  beforeAll(async () => {
    await resetDatabase(session)
    await session.command(sql`ALTER TABLE ${db}.session_facts MODIFY COLUMN SourceEventId UUID`)
  })

  afterAll(async () => {
    await h?.stopAll()
    await session.command(sql`DROP DATABASE IF EXISTS ${db}`)
    await session.close()
  })

  it('997 stored, 3 dead letters with store-rejected and the server code, offsets past all 1,000, the next batch flows', async () => {
    h = new Harness([sessions], config)
    h.sink = new ClickHouseFactStore(session)
    const bad = new Set([3, 501, 998])
    const records = Array.from({ length: 1000 }, (_, i) =>
      binaryRecord(sessions.topic, sessionEndedPayload(), { messageId: bad.has(i) ? `not-a-uuid-${i}` : guid(), key: 'one-partition' }),
    )
    h.publish(...records)
    await h.start()
    await waitUntil(() => h.caughtUp(sessions), 60_000, 'all 1,000 committed')

    const stored = await storedIds()
    expect(stored).toHaveLength(997)
    expect(stored.filter((id) => id.startsWith('not-a-uuid'))).toEqual([])
    const dlq = h.dlq(sessions)
    expect(dlq.map((r) => [r.headers['ce_id'], r.headers['dlq-reason']]).sort()).toEqual(
      [['not-a-uuid-3', 'store-rejected'], ['not-a-uuid-501', 'store-rejected'], ['not-a-uuid-998', 'store-rejected']],
    )
    // the server's message quotes the refused value: only its gist is kept (the record itself has the value)
    for (const r of dlq) expect(r.headers['dlq-detail']).toBe('CLICKHOUSE_27: Cannot parse input')
    const partition = dlq[0]?.headers['dlq-source-partition']
    const topics = defaultTopics(sessions.topic, sessions.groupId)
    expect(h.broker.log.committedOffset(sessions.groupId, { topic: topics.source, partition: Number(partition) })).toBe(1000)
    expect(h.engine(sessions.name).stats.sinkRetries).toBe(0)

    h.publish(binaryRecord(sessions.topic, sessionEndedPayload(), { key: 'one-partition' }))
    await h.engine(sessions.name).drain()
    await waitUntil(() => h.caughtUp(sessions), 10_000, 'next batch committed')
    expect(await storedIds()).toHaveLength(998)
  })

  it('two consumers flushing on the same boundary share an insert: the refused record is dead-lettered, the other batch is stored', async () => {
    await h?.stopAll()
    await session.command(sql`TRUNCATE TABLE ${db}.session_facts`)
    const [a, b] = [sessionEndedHandler('store-rejected-a', 'store-rejected-a'), sessionEndedHandler('store-rejected-b', 'store-rejected-b')]
    h = new Harness([a, b], { ...config, flushIntervalMs: 5000, slowBatchFlushMs: 500 })
    h.sink = new ClickHouseFactStore(session)
    await h.start()
    h.publish(
      ...Array.from({ length: 10 }, (_, i) => binaryRecord(a.topic, sessionEndedPayload(), { messageId: i === 4 ? 'not-a-uuid-a' : guid() })),
      ...Array.from({ length: 10 }, () => binaryRecord(b.topic, sessionEndedPayload())),
    )
    await waitUntil(() => h.caughtUp(a) && h.caughtUp(b), 30_000, 'both consumers committed')
    expect(await storedIds()).toHaveLength(19)
    expect(h.dlq(a).map((r) => [r.headers['ce_id'], r.headers['dlq-reason']])).toEqual([['not-a-uuid-a', 'store-rejected']])
    expect(h.dlq(b)).toEqual([])
  })
})
