import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const sessions = sessionEndedHandler()
const config = { maxBatchRows: 1000, flushIntervalMs: 20, sinkBackoff: { initialMs: 5, maxMs: 20 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } }
let h: Harness

afterEach(async () => h?.stopAll())

/** A store that, like ClickHouse with a narrower column, refuses any insert holding a marked row. */
const refusing = (bad: (r: FactRow) => boolean, inserts: number[]) => ({
  append: async (rows: readonly FactRow[], at: number) => {
    inserts.push(rows.length)
    if (rows.some(bad)) throw new StoreError("ClickHouse error 27: Code: 27, e.displayText() = DB::Exception: Cannot parse input", false, 'CLICKHOUSE_27')
    await h.store.append(rows, at)
  },
})

const isBad = (r: FactRow) => r.table === 'session_facts' && r.row.durationSeconds === 666

describe('rows the store refuses (spec §4): isolated, dead-lettered with store-rejected, the rest inserted and committed', () => {
  it('1,000 records with 3 refused: 997 stored, 3 dead letters with the code, offsets past all, next batch flows', async () => {
    h = new Harness([sessions], config)
    const inserts: number[] = []
    h.sink = refusing(isBad, inserts)
    await h.start()
    const records = Array.from({ length: 1000 }, (_, i) =>
      binaryRecord(sessions.topic, sessionEndedPayload({ DurationSeconds: [17, 500, 999].includes(i) ? 666 : 60 }), { key: 'one' }),
    )
    h.publish(...records)
    await waitUntil(() => h.caughtUp(sessions), 10_000, 'caught up')
    expect(h.tables.of('session_facts')).toHaveLength(997)
    const dlq = h.dlq(sessions)
    expect(dlq.map((r) => r.headers['dlq-reason'])).toEqual(['store-rejected', 'store-rejected', 'store-rejected'])
    expect(dlq.map((r) => r.headers['dlq-detail'])).toEqual(Array(3).fill('CLICKHOUSE_27: Cannot parse input'))
    expect(dlq.map((r) => r.headers['ce_id']).sort()).toEqual([17, 500, 999].map((i) => records[i]?.headers['ce_id']).sort())
    expect(inserts.length).toBeLessThan(80) // bisection, not one insert per row
    const stats = h.engine(sessions.name).stats
    expect([stats.sinkRetries, stats.deadLetters.get('store-rejected')]).toEqual([0, 3])

    h.publish(binaryRecord(sessions.topic, sessionEndedPayload(), { key: 'one' }))
    await waitUntil(() => h.tables.of('session_facts').length === 998 && h.caughtUp(sessions), 5000, 'next batch')
  })

  it('a retriable error during isolation is retried, not dead-lettered', async () => {
    h = new Harness([sessions], config)
    const inserts: number[] = []
    const refuse = refusing(isBad, inserts)
    let outages = 3
    h.sink = {
      append: async (rows, at) => {
        if (inserts.length > 0 && outages-- > 0) throw new StoreError('store is down', true, 'ECONNREFUSED')
        await refuse.append(rows, at)
      },
    }
    await h.start()
    h.publish(...[60, 666, 60, 60].map((d) => binaryRecord(sessions.topic, sessionEndedPayload({ DurationSeconds: d }), { key: 'one' })))
    await waitUntil(() => h.caughtUp(sessions), 5000, 'caught up')
    expect(h.tables.of('session_facts')).toHaveLength(3)
    expect(h.dlq(sessions).map((r) => r.headers['dlq-reason'])).toEqual(['store-rejected'])
    expect(h.engine(sessions.name).stats.sinkRetries).toBe(3)
  })
})
