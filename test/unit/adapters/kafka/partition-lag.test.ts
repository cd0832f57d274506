import { describe, expect, it } from 'vitest'
import { partitionLags } from '../../../../src/adapters/kafka/shared/partition-lag.js'

describe('partition lag from watermarks and committed offsets', () => {
  it('is end minus committed, from the earliest retained offset when the group never committed or fell behind retention', () => {
    const ends = [
      { partition: 2, low: '0', high: '10' },
      { partition: 0, low: '0', high: '100' },
      { partition: 1, low: '40', high: '50' },
      { partition: 3, low: '7', high: '7' },
    ]
    const committed = [
      { partition: 0, offset: '100' },
      { partition: 1, offset: '12' },
      { partition: 2, offset: '-1' },
    ]
    expect(partitionLags('t', ends, committed)).toEqual([
      { topic: 't', partition: 0, end: 100, committed: 100, lag: 0 },
      { topic: 't', partition: 1, end: 50, committed: 40, lag: 10 },
      { topic: 't', partition: 2, end: 10, committed: 0, lag: 10 },
      { topic: 't', partition: 3, end: 7, committed: 7, lag: 0 },
    ])
  })
})
