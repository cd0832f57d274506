import { describe, expect, it } from 'vitest'
import { FAULT_KINDS, faultSchedule } from '../../../bench/soak/schedule.js'
import { Rng } from '../../../bench/soak/random.js'

describe('soak fault schedule', () => {
  it('is the same for the same seed and different for another', () => {
    const a = faultSchedule({ seed: 7, minutes: 60, instances: 2 })
    expect(faultSchedule({ seed: 7, minutes: 60, instances: 2 })).toEqual(a)
    expect(faultSchedule({ seed: 8, minutes: 60, instances: 2 })).not.toEqual(a)
  })

  it('has every kind at least once, even in 3 minutes, all between 10 % and 75 % of the run, sorted', () => {
    for (const minutes of [3, 60]) {
      const faults = faultSchedule({ seed: 1, minutes, instances: 2 })
      expect(new Set(faults.map((f) => f.kind))).toEqual(new Set(FAULT_KINDS))
      for (const f of faults) {
        expect(f.atMs).toBeGreaterThanOrEqual(minutes * 60_000 * 0.1)
        expect(f.atMs).toBeLessThanOrEqual(minutes * 60_000 * 0.75)
        expect(f.instance).toBeGreaterThanOrEqual(0)
        expect(f.instance).toBeLessThan(2)
      }
      expect(faults.map((f) => f.atMs)).toEqual([...faults.map((f) => f.atMs)].sort((x, y) => x - y))
    }
    expect(faultSchedule({ seed: 1, minutes: 60, instances: 2 }).length).toBeGreaterThan(25)
  })

  it('holds ClickHouse down 10–60 s and an added instance 20–90 s; nothing else is held', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (const f of faultSchedule({ seed, minutes: 20, instances: 3 })) {
        if (f.kind === 'clickhouse-stop') expect(f.holdMs >= 10_000 && f.holdMs <= 60_000).toBe(true)
        else if (f.kind === 'instance-add') expect(f.holdMs >= 20_000 && f.holdMs <= 90_000).toBe(true)
        else expect(f.holdMs).toBe(0)
      }
    }
  })
})

describe('seeded random source', () => {
  it('repeats itself for a seed and draws canonical UUIDs', () => {
    const a = new Rng(99)
    const b = new Rng(99)
    const xs = Array.from({ length: 5 }, () => a.uuid())
    expect(Array.from({ length: 5 }, () => b.uuid())).toEqual(xs)
    for (const u of xs) expect(u).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(new Set(Array.from({ length: 10_000 }, () => a.uuid())).size).toBe(10_000)
  })

  it('forks independent sources by label', () => {
    const r = new Rng(5)
    expect(r.fork('x').next()).toBe(new Rng(5).fork('x').next())
    expect(r.fork('x').next()).not.toBe(r.fork('y').next())
  })
})
