import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BrokerRecord } from '../../../../src/application/ports/broker.port.js'
import { batchesOf, type NativeMessage } from '../../../../src/adapters/kafka/librdkafka/confluent-native-records.js'

const text = (u: Uint8Array | null) => (u === null ? null : Buffer.from(u).toString('utf8'))
const message = (partition: number, offset: number, extra: Partial<NativeMessage> = {}): NativeMessage => ({
  topic: 't', partition, offset, key: Buffer.from(`k${offset}`), value: Buffer.from(`v${offset}`), timestamp: 1_700_000_000_000, ...extra,
})

const only = (m: NativeMessage): BrokerRecord => {
  const r = batchesOf([m])[0]?.[0]
  if (!r) throw new Error('no record')
  return r
}

describe('librdkafka messages as broker records (batchesOf)', () => {
  it('splits one consume result into per-partition batches, each in offset order', () => {
    const batches = batchesOf([message(0, 5), message(1, 7), message(0, 6), message(1, 8), message(2, 1)])
    expect(batches.map((b) => b.map((r) => `${r.partition}:${r.offset}`))).toEqual([['0:5', '0:6'], ['1:7', '1:8'], ['2:1']])
  })

  it('keeps key, value, headers (a repeated header: the last value wins) and the broker timestamp', () => {
    const r = only(message(0, 3, {
      headers: [{ ce_id: Buffer.from('a') }, { 'x-ünïcode': Buffer.from('värde ✓') }, { ce_id: Buffer.from('b') }],
    }))
    expect(r).toMatchObject({ topic: 't', partition: 0, offset: '3', timestamp: 1_700_000_000_000 })
    expect([text(r.key), text(r.value)]).toEqual(['k3', 'v3'])
    expect(r.headers).toEqual({ ce_id: 'b', 'x-ünïcode': 'värde ✓' })
  })

  it('a null key and value stay null; no headers is an empty map; a record without a timestamp (-1) has none', () => {
    const r = only(message(0, 0, { key: null, value: null, headers: undefined, timestamp: -1 }))
    expect([r.key, r.value, r.headers, r.timestamp]).toEqual([null, null, {}, undefined])
  })

  it('a partition that comes back later in the same result joins its earlier batch, in order', () => {
    const batches = batchesOf([message(0, 1), message(0, 2), message(1, 1), message(0, 3), message(1, 2)])
    expect(batches.map((b) => b.map((r) => `${r.partition}:${r.offset}`))).toEqual([['0:1', '0:2', '0:3'], ['1:1', '1:2']])
  })

  it("copies one consume's keys and values into one buffer: no record keeps the client's Buffers (a string key as UTF-8, an empty value stays empty)", () => {
    const messages = [message(0, 1), message(1, 2, { key: 'ключ', value: Buffer.alloc(0) }), message(0, 3)]
    const records = batchesOf(messages).flat()
    for (const m of messages) (m.value as Buffer).fill(0)
    expect(records.map((r) => [text(r.key), text(r.value)])).toEqual([['k1', 'v1'], ['k3', 'v3'], ['ключ', '']])
    const buffers = new Set(records.flatMap((r) => [r.key?.buffer, r.value?.buffer]))
    expect(buffers.size).toBe(1)
  })

  it('header values repeated from the message before are the same text; lookalike bytes are decoded (property)', () => {
    // 'Ã©' is two codes equal to the two UTF-8 bytes of 'é': equal codes alone must not match.
    const value = fc.constantFrom('', 'a', 'b', 'ab', 'é', 'Ã©', 'session-ended', 'session-endex', '1.0')
    const headers = fc.array(fc.tuple(fc.constantFrom('ce_id', 'ce_type', 'x'), value), { maxLength: 5 })
    fc.assert(
      fc.property(fc.array(headers, { minLength: 2, maxLength: 12 }), (runs) => {
        const messages = runs.map((hs, i) => message(0, i, { headers: hs.map(([k, v]) => ({ [k]: Buffer.from(v) })) }))
        const records = batchesOf(messages).flat()
        records.forEach((r, i) => expect(r.headers).toEqual(Object.fromEntries((runs[i] ?? []).map(([k, v]) => [k, v]))))
      }),
      { numRuns: 300 },
    )
  })
})
