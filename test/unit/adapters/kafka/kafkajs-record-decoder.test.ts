import { createRequire } from 'node:module'
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { headersOf } from '../../../../src/adapters/kafka/shared/kafka-records.js'
import {
  decodeKafkaJsHeaderValuesAsText, decodeRecord, useFastKafkaJsRecordDecoder, type KafkaJsDecoder, type RecordBatchContext,
} from '../../../../src/adapters/kafka/kafkajs/kafkajs-record-decoder.js'

const require = createRequire(import.meta.url)
const RECORD_DECODER = require.resolve('kafkajs/src/protocol/recordBatch/record/v0/decoder.js')
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (b: Buffer) => KafkaJsDecoder
const Long = require('kafkajs/src/utils/long.js') as { fromValue(v: bigint): unknown }
const encodeRecord = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (r: {
  offsetDelta: number
  timestampDelta: unknown
  key: Buffer | null
  value: Buffer | null
  headers: Record<string, Buffer | string | (Buffer | string)[]>
}) => { buffer: Buffer }

/** kafkajs' own record decoder, loaded apart from the cached (possibly replaced) one. */
const original = ((): ((d: KafkaJsDecoder, c?: RecordBatchContext) => Record<string, unknown>) => {
  const cached = require.cache[RECORD_DECODER]
  delete require.cache[RECORD_DECODER]
  try {
    return require(RECORD_DECODER) as (d: KafkaJsDecoder, c?: RecordBatchContext) => Record<string, unknown>
  } finally {
    if (cached) require.cache[RECORD_DECODER] = cached
  }
})()

/** Both decoders over the same encoded record (its length prefix read as recordBatch/v0 does). */
const decodeBoth = (bytes: Buffer, context: RecordBatchContext) => {
  const body = (): KafkaJsDecoder => new Decoder(new Decoder(bytes).readVarIntBytes() as Buffer)
  return { theirs: original(body(), context), ours: decodeRecord(body(), context) }
}

const int64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const headerName = fc.constantFrom('ce_id', 'ce_type', 'traceparent', 'content-type', 'x', 'é', '')

const anyRecord = fc.record({
  firstOffset: fc.oneof(fc.bigInt({ min: 0n, max: 2n ** 40n }), fc.bigInt({ min: 2n ** 52n, max: 2n ** 63n - 2n ** 31n })),
  firstTimestamp: fc.oneof(fc.constant(-1n), fc.bigInt({ min: 1_600_000_000_000n, max: 1_900_000_000_000n }), int64),
  timestampDelta: fc.oneof(fc.bigInt({ min: -100_000n, max: 100_000n }), fc.bigInt({ min: -(2n ** 55n), max: 2n ** 55n })),
  offsetDelta: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
  key: fc.option(fc.uint8Array({ maxLength: 20 }), { nil: null }),
  value: fc.option(fc.uint8Array({ maxLength: 200 }), { nil: null }),
  headers: fc.array(fc.tuple(headerName, fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }))), { maxLength: 6 }),
  logAppendTime: fc.boolean(),
  control: fc.boolean(),
})

/** The record as kafkajs' encoder writes it, and its record-batch context. */
const encoded = (r: typeof anyRecord extends fc.Arbitrary<infer T> ? T : never): [Buffer, RecordBatchContext] => {
  const headers: Record<string, string[]> = {}
  for (const [k, v] of r.headers) (headers[k] ??= []).push(v)
  const bytes = encodeRecord({
    offsetDelta: r.offsetDelta,
    timestampDelta: Long.fromValue(r.timestampDelta),
    key: r.key && Buffer.from(r.key),
    value: r.value && Buffer.from(r.value),
    headers: Object.fromEntries(Object.entries(headers).map(([k, vs]) => [k, vs.length === 1 ? (vs[0] as string) : vs])),
  }).buffer
  return [bytes, {
    firstOffset: String(r.firstOffset),
    firstTimestamp: String(r.firstTimestamp),
    maxTimestamp: '1700000000123',
    magicByte: 2,
    isControlBatch: r.control,
    timestampType: r.logAppendTime ? 1 : 0,
  }]
}

describe("kafkajs' record decoder, replaced (kafkajs-record-decoder.ts)", () => {
  afterEach(() => decodeKafkaJsHeaderValuesAsText(false))

  it('is replaced in the installed kafkajs: an upgrade fails here until someone looks at it again', () => {
    expect(useFastKafkaJsRecordDecoder()).toBe(true)
    expect(require(RECORD_DECODER)).toBe(decodeRecord)
  })

  it('decodes every record exactly as kafkajs does, header values as Buffers (property)', () => {
    fc.assert(
      fc.property(anyRecord, (r) => {
        const { theirs, ours } = decodeBoth(...encoded(r))
        expect(ours).toEqual(theirs)
        expect(Object.keys(ours.headers)).toEqual(Object.keys(theirs['headers'] as object))
        // What the adapter makes of either is the same.
        expect(headersOf(ours.headers)).toEqual(headersOf(theirs['headers'] as Record<string, unknown>))
      }),
      { numRuns: 200 },
    )
  })

  it('with header values as text (npm start): each value is the text of kafkajs\' Buffer, everything else the same (property)', () => {
    decodeKafkaJsHeaderValuesAsText()
    fc.assert(
      fc.property(anyRecord, (r) => {
        const { theirs, ours } = decodeBoth(...encoded(r))
        const text = (v: unknown): unknown => (Array.isArray(v) ? v.map(text) : Buffer.isBuffer(v) ? v.toString('utf8') : v)
        const theirHeaders = theirs['headers'] as Record<string, unknown>
        expect({ ...ours, headers: undefined }).toEqual({ ...theirs, headers: undefined })
        expect(Object.keys(ours.headers)).toEqual(Object.keys(theirHeaders))
        expect(ours.headers).toEqual(Object.fromEntries(Object.entries(theirHeaders).map(([k, v]) => [k, text(v)])))
        expect(headersOf(ours.headers)).toEqual(headersOf(theirHeaders))
      }),
      { numRuns: 200 },
    )
  })

  it('header texts taken again from the record before only when their bytes are the same ASCII: runs of records (property)', () => {
    decodeKafkaJsHeaderValuesAsText()
    // 'Ã©' is two codes equal to the two UTF-8 bytes of 'é': equal codes alone must not match.
    const lookalike = fc.constantFrom('', 'a', 'b', 'ab', 'é', 'Ã©', 'Ã', 'session-ended', 'session-endex', '1.0')
    const run = fc.array(anyRecord.chain((r) => fc.array(fc.tuple(headerName, lookalike), { maxLength: 6 }).map((headers) => ({ ...r, headers }))), { minLength: 2, maxLength: 12 })
    fc.assert(
      fc.property(run, (records) => {
        for (const r of records) {
          const { theirs, ours } = decodeBoth(...encoded(r))
          expect(headersOf(ours.headers)).toEqual(headersOf(theirs['headers'] as Record<string, unknown>))
          expect(Object.keys(ours.headers)).toEqual(Object.keys(theirs['headers'] as object))
        }
      }),
      { numRuns: 300 },
    )
  })

  it('a null header value stays null, as kafkajs decodes it', () => {
    const encoder = require('kafkajs/src/protocol/encoder.js') as new () => {
      writeVarInt(n: number): unknown
      writeInt8(n: number): unknown
      writeVarLong(n: unknown): unknown
      writeVarIntBytes(b: Buffer | null): unknown
      writeVarIntString(s: string): unknown
      buffer: Buffer
    }
    const body = new encoder()
    body.writeInt8(0)
    body.writeVarLong(Long.fromValue(5n))
    body.writeVarInt(3)
    body.writeVarIntBytes(null)
    body.writeVarIntBytes(Buffer.from('v'))
    body.writeVarInt(2)
    body.writeVarIntString('a')
    body.writeVarIntBytes(null)
    body.writeVarIntString('a')
    body.writeVarIntBytes(Buffer.from('b'))
    const framed = new encoder()
    framed.writeVarIntBytes(body.buffer)
    const { theirs, ours } = decodeBoth(framed.buffer, { firstOffset: '10', firstTimestamp: '1000' })
    expect(ours).toEqual(theirs)
    expect(ours.headers).toEqual({ a: [null, Buffer.from('b')] })
    expect(ours.offset).toBe('13')
    expect(ours.timestamp).toBe('1005')
  })
})
