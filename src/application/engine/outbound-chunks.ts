import type { OutboundRecord } from '../ports/broker.port.js'

/** Well under Kafka's default 1 MiB record-batch limit (message.max.bytes), even for multi-byte text. */
export const OUTBOUND_CHUNK_BYTES = 256 * 1024
const RECORD_OVERHEAD = 64

const sizeOf = (r: OutboundRecord): number => {
  let n = RECORD_OVERHEAD + (r.key?.byteLength ?? 0) + (r.value?.byteLength ?? 0)
  for (const [k, v] of Object.entries(r.headers)) n += k.length + v.length
  return n
}

/**
 * Splits a batch's dead letters and parked copies into publishes of bounded size, in order: a
 * flush that parks thousands of records at once would otherwise be one produce request that the
 * broker refuses as too large, forever. A record larger than the bound goes alone.
 */
export const outboundChunks = (records: readonly OutboundRecord[], maxBytes = OUTBOUND_CHUNK_BYTES): OutboundRecord[][] => {
  const chunks: OutboundRecord[][] = []
  let current: OutboundRecord[] = []
  let bytes = 0
  for (const r of records) {
    const size = sizeOf(r)
    if (current.length > 0 && bytes + size > maxBytes) {
      chunks.push(current)
      current = []
      bytes = 0
    }
    current.push(r)
    bytes += size
  }
  if (current.length > 0) chunks.push(current)
  return chunks
}
