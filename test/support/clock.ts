import type { Clock } from '../../src/application/ports/clock.port.js'
import type { Instant } from '../../src/domain/instant.js'

/** A wall clock the test moves by hand. */
export class ManualClock implements Clock {
  constructor(public current: Instant = Date.parse('2026-11-30T12:00:00Z')) {}
  now(): Instant {
    return this.current
  }
  advance(ms: number): void {
    this.current += ms
  }
}
