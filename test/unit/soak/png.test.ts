import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { decodePng, pixelCensus } from '../../support/png.js'

const chunk = (type: string, data: Buffer): Buffer => {
  const length = Buffer.alloc(4)
  length.writeUInt32BE(data.length)
  return Buffer.concat([length, Buffer.from(type, 'latin1'), data, Buffer.alloc(4)]) // the CRC is not checked
}

/** An RGB PNG of `rows` (each pixel [r, g, b]), row y written with filter `filters[y]` (0–4). */
const png = (rows: readonly (readonly (readonly [number, number, number])[])[], filters: readonly number[]): Buffer => {
  const width = rows[0]?.length ?? 0
  const bpp = 3
  const raw: number[] = []
  const flat = rows.map((r) => r.flatMap((p) => [...p]))
  flat.forEach((line, y) => {
    const filter = filters[y] ?? 0
    raw.push(filter)
    line.forEach((x, i) => {
      const a = i >= bpp ? (line[i - bpp] as number) : 0
      const b = y > 0 ? (flat[y - 1]?.[i] as number) : 0
      const c = y > 0 && i >= bpp ? (flat[y - 1]?.[i - bpp] as number) : 0
      const p = a + b - c
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c
      const predicted = [0, a, b, (a + b) >> 1, paeth][filter] as number
      raw.push((x - predicted + 256) & 0xff)
    })
  })
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(rows.length, 4)
  ihdr[8] = 8
  ihdr[9] = 2
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(Buffer.from(raw))), chunk('IEND', Buffer.alloc(0))])
}

describe('decodePng (the soak test looks at Chromium screenshots with it)', () => {
  const W = [255, 255, 255] as const
  const B = [0x1f, 0x77, 0xb4] as const
  const K = [10, 20, 30] as const
  const rows = [[W, B, K, W], [B, B, W, K], [K, W, W, B], [W, K, B, B], [B, W, K, W]]

  it('undoes every row filter and returns RGBA', () => {
    const img = decodePng(png(rows, [0, 1, 2, 3, 4]))
    expect({ width: img.width, height: img.height }).toEqual({ width: 4, height: 5 })
    const px = (x: number, y: number) => [...img.pixels.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 4)]
    rows.forEach((row, y) => row.forEach((p, x) => expect(px(x, y)).toEqual([...p, 255])))
  })

  it('counts what is not white and where a colour occurs', () => {
    const c = pixelCensus(decodePng(png(rows, [4, 4, 4, 4, 4])), B, 10)
    expect(c).toEqual({ nonWhiteShare: 12 / 20, matching: 7, firstRow: 0, lastRow: 4 })
  })

  it('refuses what is not a PNG', () => {
    expect(() => decodePng(Buffer.from('<html>'))).toThrow(/not a PNG/)
  })
})
