import { describe, expect, it } from 'vitest'
import { headersOf, toBrokerRecord } from '../../../../src/adapters/kafka/shared/kafka-records.js'

describe('Kafka message → BrokerRecord', () => {
  it('headers as text: Buffers, byte arrays and strings; a repeated header keeps its last value; empty ones are dropped', () => {
    expect(
      headersOf({
        ce_id: Buffer.from('abc'),
        ce_type: new Uint8Array(Buffer.from('session-ended')),
        ce_source: 'test',
        traceparent: [Buffer.from('first'), Buffer.from('last')],
        ce_subject: undefined,
        ce_time: null,
      }),
    ).toEqual({ ce_id: 'abc', ce_type: 'session-ended', ce_source: 'test', traceparent: 'last' })
    expect(headersOf(undefined)).toEqual({})
  })

  it('a record shares the message bytes and carries offset, headers and the broker timestamp', () => {
    const value = Buffer.from('{"a":1}')
    const r = toBrokerRecord('t', 2, { offset: '41', key: null, value, headers: { ce_id: Buffer.from('x') }, timestamp: '1700000000000' })
    expect(r).toEqual({ topic: 't', partition: 2, offset: '41', key: null, value: new Uint8Array(value), headers: { ce_id: 'x' }, timestamp: 1_700_000_000_000 })
    expect(r.value?.buffer).toBe(value.buffer)
  })

  it('headers already text (npm start decodes them so) are taken as they are; any other value makes a copy of text', () => {
    const text = { ce_id: 'x', ce_type: 't' }
    expect(toBrokerRecord('t', 0, { offset: '1', key: null, value: null, headers: text }).headers).toBe(text)
    const mixed = { ce_id: 'x', ce_type: Buffer.from('t'), many: ['a', Buffer.from('b')] }
    expect(toBrokerRecord('t', 0, { offset: '1', key: null, value: null, headers: mixed }).headers).toEqual({ ce_id: 'x', ce_type: 't', many: 'b' })
  })
})
