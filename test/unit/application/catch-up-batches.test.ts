import { afterEach, describe, expect, it } from 'vitest'
import { SourceBacklog } from '../../../src/application/engine/backlog.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

// Issue 37.1: a consumer far behind its source topic grows its batches step by step up to a bound
// (rows, and bytes of record values), each inserted whole, and returns to the default batch once it
// has caught up; every record once, commits after inserts as always.
const sessions = sessionEndedHandler()
let h: Harness
afterEach(async () => h?.stopAll())

/** The harness with every insert's row count recorded. */
const harness = (catchUp?: { maxRows: number; maxBytes: number }, flushIntervalMs = 50) => {
  h = new Harness([sessions], { ...FAST_CONFIG, maxBatchRows: 100, flushIntervalMs, ...(catchUp ? { catchUp } : {}) })
  const inserts: number[] = []
  h.sink = { append: async (rows: readonly FactRow[], at: number) => (inserts.push(rows.length), h.store.append(rows, at)) }
  return inserts
}
const lagOf = (backlog: SourceBacklog, lag: number) => backlog.read([{ topic: sessions.topic, partition: 0, end: lag, committed: 0, lag }])
/** The lag a read would find before anything was consumed: every published record, on its partition. */
const lagOfPublished = async (backlog: SourceBacklog) =>
  backlog.read((await h.broker.partitionOffsets(sessions.topic)).map((p) => ({ topic: sessions.topic, partition: p.partition, end: Number(p.high), committed: 0, lag: Number(p.high) })))
const records = (n: number) => Array.from({ length: n }, () => binaryRecord(sessions.topic, sessionEndedPayload()))
const stored = () => new Set(h.tables.of('session_facts').map((r) => r.fact.row.factId)).size

describe('batches that follow the backlog (in-memory adapters)', () => {
  it('doubles the batch while far behind, up to the bound, and is back at the default once caught up', async () => {
    // batches sealed by size, not by the interval: under a loaded machine 50 ms sealed one at 500 rows
    const inserts = harness({ maxRows: 800, maxBytes: 16 * 1024 * 1024 }, 1000)
    const backlog = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, backlog)
    h.publish(...records(6000))
    await lagOfPublished(backlog)
    await h.start()
    await waitUntil(() => stored() === 6000, 20_000, 'all 6,000 stored')
    expect(Math.max(...inserts)).toBe(800)
    const firstLarge = inserts.findIndex((n) => n > 100)
    expect(inserts.slice(firstLarge, firstLarge + 3)).toEqual([200, 400, 800])
    // the backlog estimate falls as records are taken: the last batches are the default again
    expect(inserts.at(-1)).toBeLessThanOrEqual(100)
    expect(inserts.reduce((a, b) => a + b, 0)).toBe(6000)
    await waitUntil(() => h.caughtUp(sessions), 5000, 'every offset committed')
  })

  it('never grows without catch-up settings, nor with a lag below eight default batches', async () => {
    const inserts = harness()
    const backlog = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, backlog)
    lagOf(backlog, 50_000)
    h.publish(...records(2000))
    await h.start()
    await waitUntil(() => stored() === 2000, 20_000, 'all stored')
    expect(Math.max(...inserts)).toBeLessThanOrEqual(100)
    await h.stopAll()

    const small = harness({ maxRows: 800, maxBytes: 16 * 1024 * 1024 })
    const near = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, near)
    lagOf(near, 800)
    h.publish(...records(800))
    await h.start()
    await waitUntil(() => stored() === 800, 20_000, 'all stored')
    expect(Math.max(...small)).toBeLessThanOrEqual(100)
  })

  it('cuts a batch at the byte bound of record values', async () => {
    const inserts = harness({ maxRows: 800, maxBytes: 30_000 })
    const backlog = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, backlog)
    const all = records(3000)
    const perRecord = (all[0]?.value as Uint8Array).length
    h.publish(...all)
    await lagOfPublished(backlog)
    await h.start()
    await waitUntil(() => stored() === 3000, 20_000, 'all stored')
    expect(Math.max(...inserts)).toBeLessThanOrEqual(Math.ceil(30_000 / perRecord))
    expect(Math.max(...inserts)).toBeGreaterThan(100)
  })
})

// Issue 46.3: the lag read is the group's, over every member's partitions. An instance that owns
// only partition 0 and is caught up there does not grow its batches for partition 1's backlog,
// which another instance owns; it counts a partition's backlog from its first record until the
// partition is revoked.
describe('the backlog of this instance\'s own partitions', () => {
  const lags = (p0: number, p1: number) => [
    { topic: sessions.topic, partition: 0, end: p0, committed: 0, lag: p0 },
    { topic: sessions.topic, partition: 1, end: p1, committed: 0, lag: p1 },
  ]
  const on = (partition: number, n: number) => records(n).map((r, i) => ({ ...r, partition, offset: String(i) }))

  it('counts only the partitions it took records from, and forgets a revoked one', () => {
    const backlog = new SourceBacklog(sessions.topic)
    backlog.read(lags(100, 50_000))
    expect(backlog.behind).toBe(0)
    backlog.taken(on(0, 40))
    expect(backlog.behind).toBe(60)
    backlog.taken(on(1, 1))
    expect(backlog.behind).toBe(60 + 49_999)
    backlog.revoked([{ topic: sessions.topic, partition: 1 }])
    expect(backlog.behind).toBe(60)
    backlog.read(lags(0, 80_000))
    expect(backlog.behind).toBe(0)
  })

  it('keeps default batches while another member of the group is far behind', async () => {
    const inserts = harness({ maxRows: 800, maxBytes: 16 * 1024 * 1024 })
    const backlog = new SourceBacklog(sessions.topic)
    h.backlogs.set(sessions.name, backlog)
    h.publish(...records(700).map((r) => ({ ...r, key: new TextEncoder().encode('one-partition') })))
    const [ours] = (await h.broker.partitionOffsets(sessions.topic)).filter((p) => p.high !== '0').map((p) => p.partition)
    backlog.read([
      { topic: sessions.topic, partition: ours!, end: 700, committed: 0, lag: 700 },
      { topic: sessions.topic, partition: (ours! + 1) % 3, end: 500_000, committed: 0, lag: 500_000 },
    ])
    await h.start()
    await waitUntil(() => stored() === 700, 20_000, 'all stored')
    expect(Math.max(...inserts)).toBeLessThanOrEqual(100)
  })
})

describe('batches under the store\'s parts pressure (in-memory adapters)', () => {
  it('grow while the pressure is high even with no backlog known, and are the default again once it is gone', async () => {
    const inserts = harness({ maxRows: 800, maxBytes: 16 * 1024 * 1024 })
    h.pressure = { high: true }
    h.publish(...records(3000))
    await h.start()
    await waitUntil(() => stored() === 3000, 20_000, 'all stored')
    expect(Math.max(...inserts)).toBe(800)
    h.pressure.high = false
    const before = inserts.length
    h.publish(...records(1000))
    await waitUntil(() => stored() === 4000, 20_000, 'all stored')
    expect(Math.max(...inserts.slice(before + 1))).toBeLessThanOrEqual(100)
  })
})

describe('a "too many parts" refusal', () => {
  it('is retried as an outage and counted in dev_stats_store_too_many_parts_total', async () => {
    h = new Harness([sessions], { ...FAST_CONFIG, maxBatchRows: 100 })
    let refusals = 2
    h.sink = {
      append: async (rows: readonly FactRow[], at: number) => {
        if (refusals-- > 0) throw new StoreError('ClickHouse error 252: Too many parts (300). Merges are processing significantly slower than inserts', true, 'CLICKHOUSE_252')
        return h.store.append(rows, at)
      },
    }
    h.publish(...records(50))
    await h.start()
    await waitUntil(() => stored() === 50, 10_000, 'stored after the refusals')
    expect(await h.metric('dev_stats_store_too_many_parts_total')).toBe(2)
    expect(h.dlq(sessions)).toEqual([])
  })
})
