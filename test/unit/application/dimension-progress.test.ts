import { describe, expect, it } from 'vitest'
import { DimensionProgressTracker } from '../../../src/application/engine/dimension-progress.js'
import { enrichOutcome, GAP_RECHECK_MAX_MS } from '../../../src/application/engine/record-step.js'
import type { PartitionLag } from '../../../src/application/ports/consumer-lag.port.js'
import type { Guid } from '../../../src/domain/guid.js'

const FED = { fed: true }
const lag = (partition: number, end: number, committed: number): PartitionLag => ({ topic: 'dims', partition, end, committed, lag: Math.max(0, end - committed) })

describe('dimension progress: how far the dimension consumers have stored, from their lag reads', () => {
  it('fed from construction, before any read; knows nothing until a read finds the group past an earlier end', () => {
    const t = new DimensionProgressTracker(['dim-property-object'], FED)
    expect(t.fed).toBe(true)
    expect(t.storedThrough()).toBeUndefined()
    t.observed('dim-property-object', [lag(0, 10, 5), lag(1, 4, 4)], 1000)
    expect(t.storedThrough()).toBeUndefined()
    // Committed now passes the ends read from 1000 on (not the newer ones): stored through 1000.
    t.observed('dim-property-object', [lag(0, 15, 10), lag(1, 6, 4)], 2000)
    expect(t.storedThrough()).toBe(1000)
    t.observed('dim-property-object', [lag(0, 15, 15), lag(1, 6, 6)], 3000)
    expect(t.storedThrough()).toBe(3000)
  })

  it('a partition missing from a later read does not count as reached', () => {
    const t = new DimensionProgressTracker(['d'], FED)
    t.observed('d', [lag(0, 3, 0), lag(1, 3, 0)], 1000)
    t.observed('d', [lag(0, 3, 3)], 2000)
    expect(t.storedThrough()).toBeUndefined()
    t.observed('d', [lag(0, 3, 3), lag(1, 3, 3)], 3000)
    expect(t.storedThrough()).toBe(3000)
  })

  it('other consumers are ignored; with two dimension consumers the one further behind decides', () => {
    const t = new DimensionProgressTracker(['a', 'b'], FED)
    t.observed('funnel', [lag(0, 1, 1)], 500)
    expect(t.storedThrough()).toBeUndefined()
    t.observed('a', [lag(0, 1, 1)], 1000)
    expect(t.storedThrough()).toBeUndefined() // b not read yet
    t.observed('b', [lag(0, 1, 1)], 2000)
    t.observed('a', [lag(0, 1, 1)], 3000)
    expect(t.storedThrough()).toBe(2000)
  })

  it('a consumer behind for thousands of reads still reports once it catches up', () => {
    const t = new DimensionProgressTracker(['d'], FED)
    for (let i = 0; i < 1500; i++) t.observed('d', [lag(0, i + 1, 0)], i)
    expect(t.storedThrough()).toBeUndefined()
    t.observed('d', [lag(0, 2000, 2000)], 9000)
    expect(t.storedThrough()).toBe(9000)
  })

  it('not fed without a lag reader, nor without a dimension consumer here: parking ends after its attempts', () => {
    expect(new DimensionProgressTracker(['d'], { fed: false }).fed).toBe(false)
    const t = new DimensionProgressTracker([], FED)
    t.observed('funnel', [lag(0, 1, 1)], 500)
    expect(t.fed).toBe(false)
  })
})

describe('enrichOutcome: the last attempt is a gap only when the dimension progress passed the window', () => {
  const parking = { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } }
  const request = { kind: 'enrich' as const, propertyObjectId: 'po' as Guid, complete: () => [] }
  const now = 100_000

  const wait = 600_000
  it.each([
    ['not fed', undefined, 'gap'],
    ['stored through the window end', { windowEnd: 90_000, storedThrough: 90_000, maxWaitMs: wait }, 'gap'],
    ['progress not known yet', { windowEnd: 90_000, storedThrough: undefined, maxWaitMs: wait }, 'park'],
    ['stored only up to before the window end', { windowEnd: 90_000, storedThrough: 89_999, maxWaitMs: wait }, 'park'],
  ] as const)('%s → %s', (_, evidence, kind) => {
    const outcome = enrichOutcome(request, 2, undefined, parking, now, evidence)
    expect(outcome.kind).toBe(kind)
    if (outcome.kind === 'park') expect(outcome).toEqual({ kind: 'park', attempt: 2, dueAt: now + 2000, windowEnd: 90_000 })
    if (outcome.kind === 'gap') expect(outcome.unproven).toBe(false)
  })

  it('the maximum wait past the window ends the wait: an unproven gap, not before it, and the last look is due at it', () => {
    const unknown = { windowEnd: 90_000, storedThrough: undefined, maxWaitMs: 15_000 }
    expect(enrichOutcome(request, 2, undefined, parking, 104_999, unknown)).toEqual({ kind: 'park', attempt: 2, dueAt: 105_000, windowEnd: 90_000 })
    const ended = enrichOutcome(request, 2, undefined, parking, 105_000, unknown)
    expect(ended).toMatchObject({ kind: 'gap', unproven: true, poison: { reason: 'dimension-gap' } })
    if (ended.kind === 'gap') expect(ended.poison.detail).toContain('never known')
    const frozen = enrichOutcome(request, 2, undefined, parking, 200_000, { ...unknown, storedThrough: 80_000 })
    expect(frozen).toMatchObject({ kind: 'gap', unproven: true })
    if (frozen.kind === 'gap') expect(frozen.poison.detail).toContain('known through 1970-01-01T00:01:20.000Z')
  })

  it('earlier attempts park as before, and a record never parked (maxAttempts 1) is a gap at once', () => {
    const behind = { windowEnd: 90_000, storedThrough: undefined, maxWaitMs: 600_000 }
    expect(enrichOutcome(request, 0, undefined, parking, now, behind)).toEqual({ kind: 'park', attempt: 1, dueAt: now + 1000 })
    expect(enrichOutcome(request, 0, undefined, { ...parking, maxAttempts: 1 }, now, behind).kind).toBe('gap')
  })

  it('waits at most GAP_RECHECK_MAX_MS between looks', () => {
    const long = { maxAttempts: 8, backoff: { initialMs: 5000, maxMs: 300_000 } }
    const outcome = enrichOutcome(request, 7, undefined, long, now, { windowEnd: 90_000, storedThrough: undefined, maxWaitMs: 600_000 })
    expect(outcome).toMatchObject({ kind: 'park', attempt: 7, dueAt: now + GAP_RECHECK_MAX_MS })
  })
})
