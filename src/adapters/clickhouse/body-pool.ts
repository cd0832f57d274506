/**
 * Insert body buffers given back once their insert has returned, for the next bodies: a service
 * inserting all day allocates a handful instead of one per insert. Each was a fresh ArrayBuffer
 * outside V8's heap (hundreds of KB per insert), and that much external memory coming and going
 * counts towards V8's next full collection.
 */
export class BodyPool {
  private readonly free: ArrayBuffer[] = []

  constructor(
    private readonly keep = 4,
    private readonly maxBytes = 8 * 1024 * 1024,
  ) {}

  /** A buffer of at least `bytes`, given back earlier or new. */
  take(bytes: number): Buffer {
    for (let i = this.free.length - 1; i >= 0; i--) {
      const b = this.free[i] as ArrayBuffer
      if (b.byteLength >= bytes) {
        this.free.splice(i, 1)
        return Buffer.from(b)
      }
    }
    return Buffer.allocUnsafeSlow(bytes)
  }

  /** Only once the store has taken every byte: the next body writes over it. */
  give(body: Uint8Array): void {
    const b = body.buffer
    if (b instanceof ArrayBuffer && b.byteLength <= this.maxBytes) {
      if (this.free.length >= this.keep) this.free.shift()
      this.free.push(b)
    }
  }
}
