import { inflateSync } from 'node:zlib'

/** A decoded PNG: 8-bit RGBA, row after row. */
export interface Rgba {
  readonly width: number
  readonly height: number
  readonly pixels: Buffer
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
/** Bytes per pixel of the 8-bit colour types: grey, RGB, grey+alpha, RGBA. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 4: 2, 6: 4 }

/**
 * Decodes the PNGs a browser's screenshot writes (8 bits per channel, not interlaced, no palette):
 * enough to look at what was drawn, without an image library.
 */
export const decodePng = (file: Buffer): Rgba => {
  if (!file.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG file')
  let width = 0
  let height = 0
  let colorType = -1
  const idat: Buffer[] = []
  for (let at = 8; at + 8 <= file.length; ) {
    const length = file.readUInt32BE(at)
    const type = file.toString('latin1', at + 4, at + 8)
    const data = file.subarray(at + 8, at + 8 + length)
    if (type === 'IHDR') {
      width = data.readUInt32BE(0)
      height = data.readUInt32BE(4)
      const [depth, color, , , interlace] = [data[8], data[9], data[10], data[11], data[12]]
      if (depth !== 8 || color === undefined || CHANNELS[color] === undefined || interlace !== 0) {
        throw new Error(`unsupported PNG: bit depth ${depth}, colour type ${color}, interlace ${interlace}`)
      }
      colorType = color
    } else if (type === 'IDAT') idat.push(data)
    else if (type === 'IEND') break
    at += 12 + length
  }
  const bpp = CHANNELS[colorType]
  if (bpp === undefined || width === 0 || height === 0) throw new Error('PNG without a usable IHDR')
  const raw = inflateSync(Buffer.concat(idat))
  const stride = width * bpp
  if (raw.length < height * (stride + 1)) throw new Error(`PNG data too short: ${raw.length} bytes for ${width}×${height}`)
  const rows = Buffer.alloc(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)] as number
    const src = y * (stride + 1) + 1
    const out = y * stride
    for (let i = 0; i < stride; i++) {
      const x = raw[src + i] as number
      const a = i >= bpp ? (rows[out + i - bpp] as number) : 0
      const b = y > 0 ? (rows[out - stride + i] as number) : 0
      const c = y > 0 && i >= bpp ? (rows[out - stride + i - bpp] as number) : 0
      let v: number
      switch (filter) {
        case 0: v = x; break
        case 1: v = x + a; break
        case 2: v = x + b; break
        case 3: v = x + ((a + b) >> 1); break
        case 4: {
          const p = a + b - c
          const pa = Math.abs(p - a)
          const pb = Math.abs(p - b)
          const pc = Math.abs(p - c)
          v = x + (pa <= pb && pa <= pc ? a : pb <= pc ? b : c)
          break
        }
        default: throw new Error(`bad PNG filter ${filter} in row ${y}`)
      }
      rows[out + i] = v & 0xff
    }
  }
  const pixels = Buffer.alloc(width * height * 4)
  for (let p = 0; p < width * height; p++) {
    const s = p * bpp
    const [r, g, b, alpha] =
      bpp === 4 ? [rows[s], rows[s + 1], rows[s + 2], rows[s + 3]]
      : bpp === 3 ? [rows[s], rows[s + 1], rows[s + 2], 255]
      : bpp === 2 ? [rows[s], rows[s], rows[s], rows[s + 1]]
      : [rows[s], rows[s], rows[s], 255]
    pixels[p * 4] = r as number
    pixels[p * 4 + 1] = g as number
    pixels[p * 4 + 2] = b as number
    pixels[p * 4 + 3] = alpha as number
  }
  return { width, height, pixels }
}

/**
 * What a screenshot shows, in numbers: the share of pixels that are not white, and the pixels
 * within `tolerance` of `color` per channel, with the first and last row they occur in.
 */
export const pixelCensus = (img: Rgba, color: readonly [number, number, number], tolerance: number) => {
  let nonWhite = 0
  let matching = 0
  let firstRow = -1
  let lastRow = -1
  for (let y = 0; y < img.height; y++) {
    for (let x = 0; x < img.width; x++) {
      const i = (y * img.width + x) * 4
      const [r, g, b] = [img.pixels[i] as number, img.pixels[i + 1] as number, img.pixels[i + 2] as number]
      if (r < 245 || g < 245 || b < 245) nonWhite++
      if (Math.abs(r - color[0]) <= tolerance && Math.abs(g - color[1]) <= tolerance && Math.abs(b - color[2]) <= tolerance) {
        matching++
        if (firstRow < 0) firstRow = y
        lastRow = y
      }
    }
  }
  return { nonWhiteShare: nonWhite / (img.width * img.height), matching, firstRow, lastRow }
}
