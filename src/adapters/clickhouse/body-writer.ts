import type { Instant } from '../../domain/instant.js'
import type { BodyPool } from './body-pool.js'
import { dayText, DAY_SECONDS, inFastRange, isoDateTimeText } from './datetime-text.js'

const QUOTE = 34
const BACKSLASH = 92
const COLON = 58
const NULL = 'null'

/**
 * One insert body's bytes, written in place: no string per line, none per body, no UTF-8 pass
 * when it is sent. Text that is plain printable ASCII is copied code by code; anything else
 * (escapes, non-ASCII) is written as JSON.stringify spells it.
 */
export class BodyWriter {
  private buf: Buffer
  private pos = 0

  constructor(capacity: number, pool?: BodyPool) {
    const bytes = Math.max(64, capacity)
    this.buf = pool ? pool.take(bytes) : Buffer.allocUnsafeSlow(bytes)
  }

  /** The bytes written so far (a view, not a copy). */
  get bytes(): Buffer {
    return this.buf.subarray(0, this.pos)
  }

  /** Bytes as they are: the lines' constant parts, encoded once (see `encoded`). */
  raw(bytes: Uint8Array): this {
    if (this.pos + bytes.length > this.buf.length) this.grow(bytes.length)
    this.buf.set(bytes, this.pos)
    this.pos += bytes.length
    return this
  }

  /** Text known to be printable ASCII. */
  ascii(s: string): this {
    const n = s.length
    if (this.pos + n > this.buf.length) this.grow(n)
    const buf = this.buf
    let pos = this.pos
    for (let i = 0; i < n; i++) buf[pos++] = s.charCodeAt(i)
    this.pos = pos
    return this
  }

  /** A JSON string, or null. Copied as it is while it is plain; rewritten by JSON.stringify at its first escape or non-ASCII code. */
  json(s: string | null): this {
    if (s === null) return this.ascii(NULL)
    const n = s.length
    if (this.pos + n + 2 > this.buf.length) this.grow(n + 2)
    const buf = this.buf
    let pos = this.pos
    buf[pos++] = QUOTE
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i)
      if (c < 32 || c > 126 || c === QUOTE || c === BACKSLASH) return this.utf8(JSON.stringify(s))
      buf[pos++] = c
    }
    buf[pos++] = QUOTE
    this.pos = pos
    return this
  }

  /** A finite number as String() spells it, anything else null (JSON.stringify's rule). */
  num(v: number | null): this {
    return this.ascii(typeof v === 'number' && Number.isFinite(v) ? String(v) : NULL)
  }

  /** A DateTime as dateTimeText spells it, quoted: the date part cached, the time of day's digits in place. */
  time(v: Instant): this {
    if (!inFastRange(v)) return this.ascii(`"${isoDateTimeText(v)}"`)
    const seconds = Math.floor(v / 1000)
    const day = Math.floor(seconds / DAY_SECONDS)
    const s = seconds - day * DAY_SECONDS
    const date = dayText(day)
    if (this.pos + date.length + 10 > this.buf.length) this.grow(date.length + 10)
    const buf = this.buf
    let pos = this.pos
    buf[pos++] = QUOTE
    for (let i = 0; i < date.length; i++) buf[pos++] = date.charCodeAt(i)
    pos = twoDigits(buf, pos, Math.floor(s / 3600))
    buf[pos++] = COLON
    pos = twoDigits(buf, pos, Math.floor(s / 60) % 60)
    buf[pos++] = COLON
    pos = twoDigits(buf, pos, s % 60)
    buf[pos++] = QUOTE
    this.pos = pos
    return this
  }

  nullableTime(v: Instant | null): this {
    return v === null ? this.ascii(NULL) : this.time(v)
  }

  /** Any text, as UTF-8. */
  utf8(s: string): this {
    const most = s.length * 3
    if (this.pos + most > this.buf.length) this.grow(most)
    this.pos += this.buf.write(s, this.pos, 'utf8')
    return this
  }

  private grow(needed: number): void {
    const next = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + needed))
    this.buf.copy(next, 0, 0, this.pos)
    this.buf = next
  }
}

/** Constant text encoded once, for `raw`. */
export const encoded = <K extends string>(texts: Readonly<Record<K, string>>): Readonly<Record<K, Uint8Array>> =>
  Object.fromEntries(Object.entries<string>(texts).map(([k, v]) => [k, Buffer.from(v, 'utf8')])) as unknown as Record<K, Uint8Array>

const twoDigits = (buf: Buffer, pos: number, n: number): number => {
  buf[pos] = 48 + Math.floor(n / 10)
  buf[pos + 1] = 48 + (n % 10)
  return pos + 2
}
