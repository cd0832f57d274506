import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { decodeEnvelope } from '../../../src/domain/envelope.js'

const bytes = (s: string) => new TextEncoder().encode(s)

describe('CloudEvents envelope (spec §3)', () => {
  it('binary mode: attributes from ce_* headers, payload from the value, traceparent plain or prefixed', () => {
    const headers = { ce_id: 'm-1', ce_type: 'session-ended', ce_subject: 'S', ce_aggregatetype: 'Session', ce_aggregateversion: '3', ce_contractversion: '1', traceparent: 'tp' }
    expect(decodeEnvelope({ value: bytes('{"A":1}'), headers })).toEqual(
      E.right({ context: { messageId: 'm-1', type: 'session-ended', subject: 'S', aggregateType: 'Session', aggregateVersion: '3', contractVersion: '1', traceparent: 'tp' }, payload: { A: 1 } }),
    )
    expect(decodeEnvelope({ value: bytes('{}'), headers: { ce_id: 'x', ce_traceparent: 'tp2' } })).toEqual(
      E.right({ context: { messageId: 'x', traceparent: 'tp2' }, payload: {} }),
    )
  })

  it('structured mode: one JSON CloudEvent with the payload under data', () => {
    const body = JSON.stringify({ specversion: '1.0', id: 'm-2', type: 't', contractversion: '2', data: { B: 2 } })
    expect(decodeEnvelope({ value: bytes(body), headers: { 'Content-Type': 'application/cloudevents+json; charset=UTF-8' } })).toEqual(
      E.right({ context: { messageId: 'm-2', type: 't', contractVersion: '2' }, payload: { B: 2 } }),
    )
  })

  it("structured mode: the body's trace context first, else the record's traceparent header (OpenTelemetry's Kafka instrumentations)", () => {
    const ct = { 'content-type': 'application/cloudevents+json' }
    const withBody = bytes(JSON.stringify({ id: 'm', traceparent: 'body-tp', data: {} }))
    const without = bytes(JSON.stringify({ id: 'm', data: {} }))
    const contextOf = (value: Uint8Array, headers: Record<string, string>) => {
      const d = decodeEnvelope({ value, headers: { ...ct, ...headers } })
      return E.isRight(d) ? d.right.context : undefined
    }
    expect(contextOf(without, { traceparent: 'header-tp', tracestate: 'k=v' })).toEqual({ messageId: 'm', traceparent: 'header-tp', tracestate: 'k=v' })
    expect(contextOf(withBody, { traceparent: 'header-tp', tracestate: 'k=v' })).toEqual({ messageId: 'm', traceparent: 'body-tp' })
    expect(contextOf(without, {})).toEqual({ messageId: 'm' })
  })

  it.each([
    ['no value', null, { ce_id: 'a' }, 'undecodable'],
    ['empty value', bytes(''), { ce_id: 'a' }, 'undecodable'],
    ['not JSON', bytes('{oops'), { ce_id: 'a' }, 'undecodable'],
    ['not UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), { ce_id: 'a' }, 'undecodable'],
    ['no message id', bytes('{}'), {}, 'missing-message-id'],
    ['blank message id', bytes('{}'), { ce_id: '  ' }, 'missing-message-id'],
    ['structured without id', bytes('{"data":{}}'), { 'content-type': 'application/cloudevents+json' }, 'missing-message-id'],
    ['structured array', bytes('[1]'), { 'content-type': 'application/cloudevents+json' }, 'undecodable'],
  ])('%s → poison %s', (_, value, headers, reason) => {
    const result = decodeEnvelope({ value, headers })
    expect(E.isLeft(result) && result.left.reason).toBe(reason)
  })
})
