const SLOTS = 64

/**
 * Header names, and most header values (ce_type, ce_source, ce_specversion, content-type), are the
 * bytes of the same header in the record before. Each position (a slot) remembers its last text:
 * when the bytes are that text's, all ASCII, it is taken again with no call into Buffer and no new
 * string; anything else is decoded and remembered.
 */
export class RepeatedTexts {
  private readonly last: (string | undefined)[] = new Array<string | undefined>(SLOTS).fill(undefined)

  text(buf: Buffer, start: number, length: number, slot: number): string {
    const last = slot < SLOTS ? this.last[slot] : undefined
    if (last !== undefined && last.length === length) {
      let i = 0
      // Equal codes alone are not enough: 'Ã©' has the codes of the two bytes of 'é'.
      while (i < length && buf[start + i] === last.charCodeAt(i) && last.charCodeAt(i) < 0x80) i++
      if (i === length) return last
    }
    const text = buf.toString('utf8', start, start + length)
    if (slot < SLOTS) this.last[slot] = text
    return text
  }
}
