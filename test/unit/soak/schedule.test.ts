import { describe, expect, it } from 'vitest'
import { FAULT_KINDS, faultSchedule, LINKS, WIRE_FAULT_KINDS } from '../../../bench/soak/schedule.js'
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

describe('soak wire faults (--network-faults)', () => {
  it('add every wire kind on each link, even in 3 minutes, and leave the process faults of the seed as they were', () => {
    for (const minutes of [3, 60]) {
      const all = faultSchedule({ seed: 20, minutes, instances: 2, networkFaults: true })
      const wire = all.filter((f) => f.toxic)
      expect(new Set(wire.map((f) => `${f.kind} ${f.toxic?.link}`))).toEqual(new Set(LINKS.flatMap((l) => WIRE_FAULT_KINDS.map((k) => `${k} ${l}`))))
      expect(all.filter((f) => !f.toxic)).toEqual(faultSchedule({ seed: 20, minutes, instances: 2 }))
      for (const f of wire) {
        expect(f.atMs).toBeGreaterThanOrEqual(minutes * 60_000 * 0.1)
        expect(f.atMs).toBeLessThanOrEqual(minutes * 60_000 * 0.75)
      }
    }
  })

  it('hold 10–90 s (at most 15 % of a short run) with toxics in their ranges; a timeout never closes the connection', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (const minutes of [3, 60]) {
        for (const f of faultSchedule({ seed, minutes, instances: 2, networkFaults: true }).filter((x) => x.toxic)) {
          const a = f.toxic?.attributes ?? {}
          expect(f.holdMs).toBeGreaterThanOrEqual(10_000)
          expect(f.holdMs).toBeLessThanOrEqual(minutes === 3 ? 27_000 : 90_000)
          if (f.kind === 'wire-latency') expect([a['latency']! >= 200 && a['latency']! <= 5000, a['jitter']! <= a['latency']! / 2]).toEqual([true, true])
          if (f.kind === 'wire-timeout') expect(a).toEqual({ timeout: 0 })
          if (f.kind === 'wire-bandwidth') expect(a['rate']).toBeGreaterThan(0)
        }
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
