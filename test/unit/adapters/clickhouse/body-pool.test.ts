import { describe, expect, it } from 'vitest'
import { BodyPool } from '../../../../src/adapters/clickhouse/body-pool.js'
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
