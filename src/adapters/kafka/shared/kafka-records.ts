import type { BrokerRecord, OutboundRecord } from '../../../application/ports/broker.port.js'

/** A message as kafkajs hands it to `eachBatch`. */
export interface DriverMessage {
  readonly offset: string
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers?: Readonly<Record<string, unknown>>
  /** Epoch ms as a decimal string (CreateTime or LogAppendTime, per the topic's setting). */
  readonly timestamp?: string
}

/** A message as both KafkaJS-style producers accept it. */
export interface DriverOutbound {
  readonly key: Buffer | null
  readonly value: Buffer | null
  readonly headers: Record<string, string>
}

/** A plain Uint8Array view: a record's bytes compare and slice as the port's type says, not as a Buffer. */
const bytes = (b: Buffer | null | undefined): Uint8Array | null =>
  b == null ? null : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

const headerText = (v: unknown): string | undefined => {
  if (v == null) return undefined
  if (Array.isArray(v)) return headerText(v.at(-1)) // a repeated header: the last value wins
  if (typeof v === 'string') return v
  if (Buffer.isBuffer(v)) return v.toString('utf8') // what kafkajs hands over: no wrapper needed
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8')
  return String(v)
}

export const headersOf = (raw: Readonly<Record<string, unknown>> | undefined): Readonly<Record<string, string>> => {
  if (raw !== undefined && allText(raw)) return raw as Readonly<Record<string, string>>
  const out: Record<string, string> = {}
  // Runs for every record: a plain loop, no entries array.
  for (const k in raw) {
    const text = headerText(raw[k])
    if (text !== undefined) out[k] = text
  }
  return out
}

/** Headers decoded as text already (npm start's kafkajs decoder): taken as they are, not copied. */
const allText = (raw: Readonly<Record<string, unknown>>): boolean => {
  for (const k in raw) if (typeof raw[k] !== 'string') return false
  return true
}

/** Runs for every record: one object of one shape or the other, no spread of a helper object. */
export const toBrokerRecord = (topic: string, partition: number, m: DriverMessage): BrokerRecord => {
  const offset = String(m.offset)
  const key = bytes(m.key)
  const value = bytes(m.value)
  const headers = headersOf(m.headers)
  const ms = m.timestamp === undefined ? Number.NaN : Number(m.timestamp)
  return Number.isFinite(ms) && ms > 0
    ? { topic, partition, offset, key, value, headers, timestamp: ms }
    : { topic, partition, offset, key, value, headers }
}

const buffer = (u: Uint8Array | null): Buffer | null => (u === null ? null : Buffer.from(u.buffer, u.byteOffset, u.byteLength))

/** Groups records by topic, preserving their order, in the `sendBatch` shape. */
export const topicMessagesOf = (records: readonly OutboundRecord[]): { topic: string; messages: DriverOutbound[] }[] => {
  const byTopic = new Map<string, DriverOutbound[]>()
  for (const r of records) {
    const list = byTopic.get(r.topic) ?? []
    list.push({ key: buffer(r.key), value: buffer(r.value), headers: { ...r.headers } })
    byTopic.set(r.topic, list)
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }))
}
