import type { BrokerRecord } from '../../application/ports/broker.port.js'

/** A message as librdkafka's own consumer API (`KafkaConsumer.consume(n, cb)`) hands it over. */
export interface NativeMessage {
  readonly topic: string
  readonly partition: number
  readonly offset: number
  readonly key?: Buffer | string | null
  readonly value: Buffer | null
  /** One single-key object per header, in the order they were written. */
  readonly headers?: readonly Readonly<Record<string, Buffer | string>>[]
  /** Epoch ms (CreateTime or LogAppendTime); -1 when the record has none. */
  readonly timestamp?: number
}

const bytes = (b: Buffer | string | null | undefined): Uint8Array | null => {
  if (b == null) return null
  const buf = typeof b === 'string' ? Buffer.from(b) : b
  return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength)
}

const headersOf = (raw: NativeMessage['headers']): Record<string, string> => {
  const out: Record<string, string> = {}
  if (!raw) return out
  // Runs for every record: plain loops. A repeated header: the last value wins.
  for (const header of raw) {
    for (const k in header) {
      const v = header[k]
      out[k] = typeof v === 'string' ? v : (v as Buffer).toString('utf8')
    }
  }
  return out
}

const toRecord = (m: NativeMessage): BrokerRecord => {
  const ts = m.timestamp
  return {
    topic: m.topic, partition: m.partition, offset: String(m.offset),
    key: bytes(m.key), value: bytes(m.value), headers: headersOf(m.headers),
    timestamp: ts !== undefined && ts > 0 ? ts : undefined,
  }
}

/**
 * One `consume` result as per-partition batches, each in offset order (librdkafka interleaves
 * partitions in its single consumer queue but keeps each partition's order).
 */
export const batchesOf = (messages: readonly NativeMessage[]): BrokerRecord[][] => {
  const byPartition = new Map<string, BrokerRecord[]>()
  for (const m of messages) {
    const k = `${m.topic}\u0000${m.partition}`
    let list = byPartition.get(k)
    if (!list) byPartition.set(k, (list = []))
    list.push(toRecord(m))
  }
  return [...byPartition.values()]
}
