/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same traffic and the same
 * fault schedule, so a failing soak can be repeated. Not for anything secret.
 */
export class Rng {
  private state: number

  constructor(seed: number) {
    this.state = seed >>> 0
  }

  /** A uniform float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0
    let t = this.state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1))
  }

  chance(p: number): boolean {
    return this.next() < p
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing')
    return items[Math.floor(this.next() * items.length)] as T
  }

  /** An index chosen in proportion to `weights`. */
  weighted(weights: readonly number[]): number {
    const total = weights.reduce((a, b) => a + b, 0)
    let x = this.next() * total
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i] as number
      if (x < 0) return i
    }
    return weights.length - 1
  }

  /** A version-4-shaped UUID drawn from this source (lower case, canonical). */
  uuid(): string {
    const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0')
    const a = hex(this.next() * 4294967296)
    const b = hex(this.next() * 4294967296)
    const c = hex(this.next() * 4294967296)
    const d = hex(this.next() * 4294967296)
    return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${(8 + (parseInt(c[0] as string, 16) & 3)).toString(16)}${c.slice(1, 4)}-${c.slice(4)}${d}`
  }

  /** An independent source for one concern, so adding draws to one does not shift the other. */
  fork(label: string): Rng {
    let h = this.state ^ 0x9e3779b9
    for (let i = 0; i < label.length; i++) h = Math.imul(h ^ label.charCodeAt(i), 0x01000193)
    return new Rng(h >>> 0)
  }
}
