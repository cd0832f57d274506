import { createRequire } from 'node:module'
import { RepeatedTexts } from '../shared/repeated-text.js'

// kafkajs 2.2.4 decodes every fetched record in `protocol/recordBatch/record/v0/decoder.js`, and
// per record it: reads the timestamp delta as a BigInt Long (one Long object per varint byte plus
// zig-zag arithmetic), adds BigInt Longs for the offset and the timestamp, slices a Buffer per
// header value, and builds the headers object with a spread per header
// (`reduce((obj, h) => ({ ...obj, [h.key]: … }))`). In bench:e2e's profiles that decoder was about
// a seventh of the kafkajs service's main thread. This decoder returns the same record, the same
// types and values (a property test holds it to kafkajs' own): numbers where the values fit in 53
// bits (BigInt Longs otherwise, as kafkajs), one headers object. Header values stay Buffers (views
// of the fetched bytes, as kafkajs' are), because the decoder is kafkajs' module-wide: a host's own
// kafkajs consumers in the same process decode with it too, and must see what kafkajs gives them.
// A process whose kafkajs consumers are all this library's (npm start) turns on
// `decodeKafkaJsHeaderValuesAsText`: each value is then read as text in place, with no Buffer of
// its own (six per CloudEvents record; bench:e2e, kafkajs: about 10 % less CPU per record).

/** kafkajs' Decoder (protocol/decoder.js), the parts read here. */
export interface KafkaJsDecoder {
  buffer: Buffer
  offset: number
  readInt8(): number
  readVarInt(): number
  readVarLong(): { toString(): string }
  readVarIntBytes(): Buffer | null
  readVarIntString(): string | null
}

/** recordBatch/v0/decoder.js' context of each record. */
export interface RecordBatchContext {
  readonly firstOffset?: string
  readonly firstTimestamp?: string
  readonly magicByte?: number
  readonly isControlBatch?: boolean
  readonly timestampType?: number
  readonly maxTimestamp?: string
}

/** The record as kafkajs' decoder returns it. */
export interface DecodedRecord {
  readonly magicByte: number | undefined
  readonly attributes: number
  readonly timestamp: string | undefined
  readonly offset: string
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Record<string, HeaderValue | HeaderValue[]>
  readonly isControlRecord: boolean
  readonly batchContext: RecordBatchContext
}

/** A header value as kafkajs hands it over (Buffer), or as text once decodeKafkaJsHeaderValuesAsText is on. */
export type HeaderValue = Buffer | string | null

let headerValuesAsText = false

/**
 * Process-wide: from now on every kafkajs consumer in the process gets header values as strings
 * (UTF-8) instead of Buffers. Only for a process in which no other code reads kafkajs header values
 * (npm start); the adapter takes either. `false` restores kafkajs' Buffers.
 */
export const decodeKafkaJsHeaderValuesAsText = (on = true): void => {
  headerValuesAsText = on
}

/** The version whose decoder this replaces; any other is left as it is. */
export const PATCHED_KAFKAJS_VERSION = '2.2.4'
const LOG_APPEND_TIME = 1

const require = createRequire(import.meta.url)
interface LongClass {
  fromValue(v: unknown): { add(x: unknown): { toString(): string } }
}
let Long: LongClass | undefined
const long = (): LongClass => (Long ??= require('kafkajs/src/utils/long.js') as LongClass)

/**
 * A zig-zag varlong as a number when it has at most 7 bytes (49 bits, exact in a double);
 * undefined otherwise, with the decoder's offset where it was.
 */
const smallVarLong = (d: KafkaJsDecoder): number | undefined => {
  const buf = d.buffer
  const start = d.offset
  let at = start
  let result = 0
  let scale = 1
  for (let i = 0; i < 7; i++) {
    const byte = buf[at++] as number
    result += (byte & 0x7f) * scale
    if (byte < 0x80) {
      d.offset = at
      return result % 2 === 0 ? result / 2 : -(result + 1) / 2
    }
    scale *= 128
  }
  return undefined
}

/** `base` (a decimal int64 string) + `delta` as kafkajs prints it; numbers while exact, BigInt beyond. */
const plus = (base: string | undefined, delta: number | { toString(): string }): string => {
  if (typeof delta === 'number') {
    const b = Number(base)
    const sum = b + delta
    if (Number.isSafeInteger(b) && Number.isSafeInteger(sum) && base !== undefined && base.length > 0) return String(sum)
  }
  return long().fromValue(base).add(delta).toString()
}

const hasOwn = Object.prototype.hasOwnProperty

/** A varint-length string read in place: kafkajs' readVarIntString slices a Buffer first. */
const varIntText = (d: KafkaJsDecoder, slot?: number): string | null => {
  const length = d.readVarInt()
  if (length === -1) return null
  const start = d.offset
  d.offset = start + length
  return slot === undefined ? d.buffer.toString('utf8', start, start + length) : headerTexts.text(d.buffer, start, length, slot)
}

/** Header names at 2 × index, values at 2 × index + 1. */
const headerTexts = new RepeatedTexts()

/** Record v0 (see kafkajs' decoder for the layout), as kafkajs decodes it. */
export const decodeRecord = (decoder: KafkaJsDecoder, batchContext: RecordBatchContext = {}): DecodedRecord => {
  const { firstOffset, firstTimestamp, magicByte, isControlBatch = false, timestampType, maxTimestamp } = batchContext
  const attributes = decoder.readInt8()
  const timestampDelta = smallVarLong(decoder) ?? decoder.readVarLong()
  const timestamp = timestampType === LOG_APPEND_TIME && maxTimestamp ? maxTimestamp : plus(firstTimestamp, timestampDelta)
  const offset = plus(firstOffset, decoder.readVarInt())
  const key = decoder.readVarIntBytes()
  const value = decoder.readVarIntBytes()
  const headers: Record<string, HeaderValue | HeaderValue[]> = {}
  const asText = headerValuesAsText
  const count = decoder.readVarInt()
  for (let i = 0; i < count; i++) {
    const name = String(varIntText(decoder, 2 * i))
    // A view of the fetched bytes, as kafkajs' own; or the text, when the process asked for it.
    const v = asText ? varIntText(decoder, 2 * i + 1) : decoder.readVarIntBytes()
    if (!hasOwn.call(headers, name)) {
      if (name === '__proto__') Object.defineProperty(headers, name, { value: v, enumerable: true, writable: true, configurable: true })
      else headers[name] = v
    } else {
      const seen = headers[name] as HeaderValue | HeaderValue[]
      headers[name] = Array.isArray(seen) ? [...seen, v] : [seen, v]
    }
  }
  return { magicByte, attributes, timestamp, offset, key, value, headers, isControlRecord: isControlBatch, batchContext }
}

const RECORD_DECODER = 'kafkajs/src/protocol/recordBatch/record/v0/decoder.js'
const RECORD_BATCH_DECODER = 'kafkajs/src/protocol/recordBatch/v0/decoder.js'

/**
 * Puts decodeRecord in place of kafkajs' record decoder, once, before kafkajs' record-batch
 * decoder is loaded (it binds the record decoder when it loads, at the first fetch). Returns
 * whether kafkajs decodes with it: false for another kafkajs version (a unit test holds the
 * installed one to 2.2.4, so that an upgrade gets looked at) or when a fetch already loaded it.
 */
export const useFastKafkaJsRecordDecoder = (): boolean => {
  const { version } = require('kafkajs/package.json') as { version: string }
  if (version !== PATCHED_KAFKAJS_VERSION) return false
  const path = require.resolve(RECORD_DECODER)
  require(path)
  const cached = require.cache[path]
  if (!cached) return false
  if (cached.exports === decodeRecord) return true
  if (require.cache[require.resolve(RECORD_BATCH_DECODER)]) return false
  cached.exports = decodeRecord
  return true
}
