import { describe, expect, it } from 'vitest'
import { OffsetTracker } from '../../../src/application/engine/offset-tracker.js'
import type { BrokerRecord } from '../../../src/application/ports/broker.port.js'

// Offsets are numbers while exact and bigints beyond 2^53 - 1: the commit must stay exact across
// that line and never pass an offset still in flight.
const record = (offset: string, partition = 0): BrokerRecord => ({ topic: 't', partition, offset, key: null, value: null, headers: {} })
const SAFE = Number.MAX_SAFE_INTEGER // 9007199254740991

describe('OffsetTracker', () => {
  it('commits past the highest done offset, exactly, across 2^53', () => {
    const tracker = new OffsetTracker()
    const records = ['9007199254740990', '9007199254740991', '9007199254740992', '9007199254740993'].map((o) => record(o))
    tracker.received(records)
    expect(tracker.committable()).toEqual([])
    tracker.done(records)
    expect(tracker.committable()).toEqual([{ topic: 't', partition: 0, offset: '9007199254740994' }])
  })

  it('holds the commit at the lowest offset in flight, on both sides of 2^53', () => {
    const tracker = new OffsetTracker()
    const [a, b, c] = [String(SAFE - 1), String(SAFE), '9007199254740992'].map((o) => record(o)) as [BrokerRecord, BrokerRecord, BrokerRecord]
    tracker.received([a, b, c])
    tracker.done([a, c])
    expect(tracker.committable()).toEqual([{ topic: 't', partition: 0, offset: String(SAFE) }])
    tracker.markCommitted(tracker.committable())
    expect(tracker.committable()).toEqual([])
    tracker.done([b])
    expect(tracker.committable()).toEqual([{ topic: 't', partition: 0, offset: '9007199254740993' }])
  })

  it('drops a revoked partition: its offsets are no longer ours to commit', () => {
    const tracker = new OffsetTracker()
    const p0 = [record('5', 0), record('6', 0)]
    const p1 = [record('7', 1)]
    tracker.received([...p0, ...p1])
    tracker.revoke([{ topic: 't', partition: 0 }])
    tracker.done([...p0, ...p1])
    expect(tracker.committable()).toEqual([{ topic: 't', partition: 1, offset: '8' }])
  })

  it('holds an offset read twice until both reads are settled', () => {
    const tracker = new OffsetTracker()
    const [first, again] = [record('4'), record('4')] as [BrokerRecord, BrokerRecord]
    tracker.received([first])
    tracker.received([again, record('5')])
    tracker.done([again, record('5')])
    expect(tracker.committable()).toEqual([]) // held at 4, where it started
    tracker.done([first])
    expect(tracker.committable()).toEqual([{ topic: 't', partition: 0, offset: '6' }])
  })
})
