import { describe, expect, it } from 'vitest'
import type { OutboundRecord } from '../../../src/application/ports/broker.port.js'
import { OUTBOUND_CHUNK_BYTES, outboundChunks } from '../../../src/application/engine/outbound-chunks.js'

const record = (i: number, valueBytes: number): OutboundRecord => ({
  topic: 'dev-stats-funnel-favorites.retry',
  key: new Uint8Array(36),
  value: new Uint8Array(valueBytes),
  headers: { ce_id: `id-${i}`, 'dev-stats-attempt': '1' },
})

describe('outboundChunks', () => {
  it('keeps every record once, in order, each chunk within the bound', () => {
    const records = Array.from({ length: 10_000 }, (_, i) => record(i, 400))
    const chunks = outboundChunks(records)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.flat()).toEqual(records)
    for (const c of chunks) {
      const headerBytes = (r: OutboundRecord) => Object.entries(r.headers).reduce((n, [k, v]) => n + k.length + v.length, 0)
      const bytes = c.reduce((n, r) => n + 64 + (r.key?.byteLength ?? 0) + (r.value?.byteLength ?? 0) + headerBytes(r), 0)
      expect(bytes).toBeLessThanOrEqual(OUTBOUND_CHUNK_BYTES)
    }
  })

  it('a small batch is one publish; none for no records; an oversized record goes alone', () => {
    expect(outboundChunks([record(1, 10), record(2, 10)])).toHaveLength(1)
    expect(outboundChunks([])).toEqual([])
    const big = record(3, OUTBOUND_CHUNK_BYTES * 2)
    expect(outboundChunks([record(1, 10), big, record(2, 10)])).toEqual([[record(1, 10)], [big], [record(2, 10)]])
  })
})
