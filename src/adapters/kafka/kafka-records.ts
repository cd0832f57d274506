import type { BrokerRecord, OutboundRecord } from '../../application/ports/broker.port.js'

/** A message as both KafkaJS-style clients hand it to `eachBatch`. */
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

const bytes = (b: Buffer | null | undefined): Uint8Array | null =>
  b == null ? null : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)

const headerText = (v: unknown): string | undefined => {
  if (v == null) return undefined
  if (Array.isArray(v)) return headerText(v.at(-1)) // a repeated header: the last value wins
  if (typeof v === 'string') return v
  if (Buffer.isBuffer(v)) return v.toString('utf8') // what both clients hand over: no wrapper needed
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8')
  return String(v)
}

export const headersOf = (raw: Readonly<Record<string, unknown>> | undefined): Record<string, string> => {
  const out: Record<string, string> = {}
  // Runs for every record: a plain loop, no entries array.
  for (const k in raw) {
    const text = headerText(raw[k])
    if (text !== undefined) out[k] = text
  }
  return out
}

export const toBrokerRecord = (topic: string, partition: number, m: DriverMessage): BrokerRecord => ({
  topic,
  partition,
  offset: String(m.offset),
  key: bytes(m.key),
  value: bytes(m.value),
  headers: headersOf(m.headers),
  ...timestampOf(m.timestamp),
})

const timestampOf = (raw: string | undefined): { timestamp?: number } => {
  const ms = Number(raw)
  return raw !== undefined && Number.isFinite(ms) && ms > 0 ? { timestamp: ms } : {}
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
