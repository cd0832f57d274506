import { describe, expect, it } from 'vitest'
import { BodyPool } from '../../../../src/adapters/clickhouse/body-pool.js'
import { ClickHouseFactStore } from '../../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import type { ClickHouseSession } from '../../../../src/adapters/clickhouse/clickhouse-session.js'
import { jsonEachRowBodies } from '../../../../src/adapters/clickhouse/json-each-row.js'
import { at, sessionFact } from '../../../../src/testing/contracts/fact-rows.mother.js'

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? []).toString('utf8')

describe('insert body buffers given back (BodyPool)', () => {
  it('the next body is written into a buffer given back, and holds only its own rows', () => {
    const pool = new BodyPool()
    const t = at('2026-11-30T10:00:07Z')
    const first = jsonEachRowBodies([sessionFact(), sessionFact(), sessionFact()], t, pool).get('session_facts')
    const single = [sessionFact()]
    const alone = text(jsonEachRowBodies(single, t).get('session_facts')?.bytes)
    if (!first) throw new Error('no body')
    pool.give(first.bytes)
    const second = jsonEachRowBodies(single, t, pool).get('session_facts')
    expect(second?.bytes.buffer).toBe(first.bytes.buffer)
    expect(text(second?.bytes)).toBe(alone)
  })

  it('a buffer still out is never handed out again; a big enough one is chosen', () => {
    const pool = new BodyPool()
    const a = pool.take(100)
    const b = pool.take(100)
    expect(b.buffer).not.toBe(a.buffer)
    pool.give(a)
    expect(pool.take(1000).buffer).not.toBe(a.buffer)
    expect(pool.take(50).buffer).toBe(a.buffer)
    expect(pool.take(50).buffer).not.toBe(a.buffer)
  })

  it('keeps at most `keep` buffers, none above maxBytes', () => {
    const pool = new BodyPool(2, 1000)
    const [a, b, c, big] = [pool.take(100), pool.take(100), pool.take(100), pool.take(2000)]
    for (const x of [a, b, c, big]) pool.give(x)
    const again = new Set([pool.take(10).buffer, pool.take(10).buffer, pool.take(10).buffer])
    expect(again.has(a.buffer)).toBe(false)
    expect(again.has(b.buffer) && again.has(c.buffer)).toBe(true)
    expect(again.has(big.buffer)).toBe(false)
  })
})

describe('the fact store gives a body buffer back only after its insert returned', () => {
  it('a refused insert keeps its bytes (never written over); a stored one is reused by the next body', async () => {
    const sent: Uint8Array[] = []
    let refuse = true
    const session = {
      insertJsonEachRow: async (_table: string, body: Uint8Array) => {
        sent.push(body)
        if (refuse) throw new Error('store down')
      },
      insert: async () => undefined,
    } as unknown as ClickHouseSession
    const store = new ClickHouseFactStore(session)
    const t = at('2026-11-30T10:00:07Z')
    await expect(store.append([sessionFact()], t)).rejects.toThrow('store down')
    const refused = sent[0] as Uint8Array
    const refusedText = text(refused)
    refuse = false
    await store.append([sessionFact()], t)
    await store.append([sessionFact()], t)
    expect(sent[1]?.buffer).not.toBe(refused.buffer)
    expect(sent[2]?.buffer).toBe(sent[1]?.buffer)
    expect(text(refused)).toBe(refusedText)
  })
})
