import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { defaultTopics } from '../../../src/application/engine/engine-config.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactStore } from '../../../src/application/ports/fact-store.port.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { databaseOfTestFile, forceMerge, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, messageIdOf, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'
import { freePort } from '../../support/http.js'
import { OwnClickHouse } from '../../support/own-clickhouse.js'

// Issue 3: the real 18.16 server stops while the real ConsumerEngine ingests from the in-memory
// broker. The batch is retried with backoff, no offset is committed past rows that are not in
// ClickHouse, and after the restart every event is there exactly once. The server stopped is one of
// this file's own (own ports and state): the shared one keeps serving the files running meanwhile.
const sessions = sessionEndedHandler()
const clickhouse = new OwnClickHouse(await freePort(), await freePort())
const DATABASE = databaseOfTestFile(import.meta.url)
const session = serverSession({ url: clickhouse.url, user: 'default', password: '', database: DATABASE })
const db = ident(DATABASE)

interface Attempt {
  readonly at: number
  readonly error?: StoreError
}

const factIds = async (): Promise<string[]> =>
  (await session.select<{ FactId: string }>(sql`SELECT FactId FROM ${db}.session_facts`)).map((r) => r.FactId)

describe('ClickHouse server outage while the engine ingests', () => {
  let h: Harness

  beforeAll(async () => {
    clickhouse.start()
    await resetDatabase(session)
  })

  afterAll(async () => {
    await h?.stopAll()
    await session.close()
    clickhouse.dispose()
  })

  it('retries with backoff, commits nothing past uninserted data, and ends with every event exactly once', async () => {
    h = new Harness([sessions], { ...FAST_CONFIG, sinkBackoff: { initialMs: 50, maxMs: 400 } })
    const store = new ClickHouseFactStore(session)
    const attempts: Attempt[] = []
    h.sink = {
      append: async (rows, at) => {
        try {
          await store.append(rows, at)
          attempts.push({ at: Date.now() })
        } catch (e) {
          attempts.push({ at: Date.now(), error: e as StoreError })
          throw e
        }
      },
    } satisfies FactStore
    await h.start()

    const before = Array.from({ length: 20 }, () => binaryRecord(sessions.topic, sessionEndedPayload()))
    h.publish(...before)
    await waitUntil(() => h.caughtUp(sessions), 20_000, 'first batch committed')
    expect(new Set(await factIds())).toEqual(new Set(before.map(messageIdOf)))

    clickhouse.stop()
    const during = Array.from({ length: 30 }, () => binaryRecord(sessions.topic, sessionEndedPayload()))
    h.publish(...during)
    await waitUntil(() => attempts.filter((a) => a.error).length >= 5, 30_000, 'five failed inserts')

    const failures = attempts.filter((a) => a.error)
    for (const f of failures) {
      expect(f.error).toBeInstanceOf(StoreError)
      expect(f.error?.retriable).toBe(true)
    }
    // Exponential backoff: the gaps between failed attempts grow (50, 100, 200, 400 ms …).
    const gaps = failures.slice(1).map((f, i) => f.at - (failures[i] as Attempt).at)
    expect(gaps[0]).toBeGreaterThanOrEqual(40)
    expect(gaps[3]).toBeGreaterThan(gaps[0] as number)
    // Nothing published during the outage is committed.
    const source = defaultTopics(sessions.topic, sessions.groupId).source
    const uninserted = h.broker.records(source).filter((r) => during.some((d) => messageIdOf(d) === r.headers['ce_id']))
    expect(uninserted).toHaveLength(during.length)
    for (const r of uninserted) {
      expect(h.broker.log.committedOffset(sessions.groupId, { topic: source, partition: r.partition })).toBeLessThanOrEqual(r.offset)
    }
    expect(h.engine(sessions.name).stats.sinkRetries).toBeGreaterThanOrEqual(5)

    clickhouse.start()
    await waitUntil(() => h.caughtUp(sessions), 60_000, 'caught up after restart')

    const expected = new Set([...before, ...during].map(messageIdOf))
    const ids = await factIds()
    expect(new Set(ids)).toEqual(expected)
    await forceMerge(session)
    const merged = await factIds()
    expect(merged).toHaveLength(expected.size)
    expect(new Set(merged)).toEqual(expected)
  })
})
