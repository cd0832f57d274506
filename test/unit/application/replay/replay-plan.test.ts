import { describe, expect, it } from 'vitest'
import { changedPartitions, planReplay, type PlanInput } from '../../../../src/application/replay/replay-plan.js'

// One partition per row: held [low, high), the group's commit, the offset at the time, forward or not.
const one = (low: number, high: number, committed: number | null, atTime: number, forward = false): PlanInput => ({
  watermarks: [{ partition: 0, low: String(low), high: String(high) }],
  committed: new Map(committed === null ? [] : [[0, String(committed)]]),
  atTime: new Map([[0, String(atTime)]]),
  forward,
})

describe('planReplay', () => {
  it.each([
    ['back to the time', one(0, 100, 100, 40), { committed: '100', position: 100, atTime: 40, next: 40, reread: 60 }],
    ['time before the earliest record held', one(20, 100, 100, 0), { position: 100, atTime: 20, next: 20, reread: 80 }],
    ['never committed: the service reads from the earliest anyway', one(0, 100, null, 40), { committed: null, position: 0, next: 0, reread: 0 }],
    ['the group has not reached the time: kept, nothing skipped', one(0, 100, 30, 40), { position: 30, next: 30, reread: 0 }],
    ['--to-latest moves it forward: skips', one(0, 100, 30, 100, true), { position: 30, next: 100, reread: -70 }],
    ['time after the newest record: the end', one(0, 100, 100, 100), { next: 100, reread: 0 }],
    ['commit below the earliest held (retention): from the earliest', one(50, 100, 10, 60), { position: 50, next: 50, reread: 0 }],
  ])('%s', (_, input, expected) => {
    expect(planReplay(input)[0]).toMatchObject(expected)
  })

  it('plans every partition in order; only those whose commit changes are written', () => {
    const plan = planReplay({
      watermarks: [{ partition: 1, low: '0', high: '10' }, { partition: 0, low: '0', high: '5' }, { partition: 2, low: '0', high: '0' }],
      committed: new Map([[0, '5'], [1, '3']]),
      atTime: new Map([[0, '2'], [1, '7'], [2, '0']]),
      forward: false,
    })
    expect(plan.map((p) => [p.partition, p.next, p.reread])).toEqual([[0, 2, 3], [1, 3, 0], [2, 0, 0]])
    expect(changedPartitions(plan).map((p) => p.partition)).toEqual([0, 2])
  })
})
