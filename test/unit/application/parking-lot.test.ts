import { describe, expect, it } from 'vitest'
import { ParkingLot } from '../../../src/application/engine/parking-lot.js'
import type { BrokerRecord } from '../../../src/application/ports/broker.port.js'

const gate = { close: () => undefined, open: () => undefined }

describe('ParkingLot', () => {
  it('a held copy has bytes of its own, not a view of what the client fetched (a consume or a fetch response stays collectable)', () => {
    const fetched = Buffer.from('xxkeyvalue-of-the-parked-copyyy')
    const record: BrokerRecord = {
      topic: 'g.retry', partition: 0, offset: '7',
      key: new Uint8Array(fetched.buffer, fetched.byteOffset + 2, 3),
      value: fetched.subarray(5, 29), // a Buffer too: its slice() would be a view again
      headers: { 'retry-attempt': '1' },
    }
    const lot = new ParkingLot(10, gate)
    lot.hold(record, 1000)
    fetched.fill(0)
    const [held] = lot.takeDue(1000)
    expect(Buffer.from(held?.key as Uint8Array).toString()).toBe('key')
    expect(Buffer.from(held?.value as Uint8Array).toString()).toBe('value-of-the-parked-copy')
    expect(held?.value?.buffer.byteLength).toBe(24)
    expect({ ...held, key: undefined, value: undefined }).toEqual({ ...record, key: undefined, value: undefined })
  })

  it('a null key or value stays null', () => {
    const lot = new ParkingLot(10, gate)
    lot.hold({ topic: 't', partition: 0, offset: '1', key: null, value: null, headers: {} }, 5)
    expect(lot.takeDue(5)).toEqual([{ topic: 't', partition: 0, offset: '1', key: null, value: null, headers: {} }])
  })

  it('holds a copy once: read again (a rejoin that kept the partition) it is refused until it left', () => {
    const lot = new ParkingLot(10, gate)
    const copy: BrokerRecord = { topic: 'g.retry', partition: 1, offset: '9', key: null, value: null, headers: {} }
    expect(lot.hold(copy, 5)).toBe(true)
    expect(lot.hold({ ...copy }, 5)).toBe(false)
    expect(lot.hold({ ...copy, partition: 2 }, 5)).toBe(true)
    expect(lot.size).toBe(2)
    expect(lot.takeDue(5)).toHaveLength(2)
    expect(lot.hold(copy, 9)).toBe(true)
    lot.revoke([{ topic: 'g.retry', partition: 1 }])
    expect(lot.hold(copy, 9)).toBe(true)
  })
})
