import { describe, expect, it } from 'vitest'
import * as E from 'fp-ts/lib/Either.js'
import { sessionEndedFact } from '../../../src/domain/session-ended.js'
import { EMPTY, guid, sessionEndedPayload } from '../../support/events.js'

const now = Date.parse('2026-11-30T12:00:00Z')
const ctx = { messageId: 'm-1' }
const reasonOf = (payload: unknown) => {
  const r = sessionEndedFact(ctx, payload, now)
  return E.isLeft(r) ? r.left.reason : 'ok'
}

describe('session-ended rules (seed 000, step 2)', () => {
  it.each([
    ['valid', {}, 'ok'],
    ['Guid.Empty SessionId', { SessionId: EMPTY }, 'empty-session-id'],
    ['upper-case SessionId is a valid UUID', { SessionId: guid().toUpperCase() }, 'ok'],
    ['DurationSeconds = 0', { DurationSeconds: 0 }, 'ok'],
    ['DurationSeconds = -1', { DurationSeconds: -1 }, 'negative-duration'],
    ['DurationSeconds fractional', { DurationSeconds: 1.5 }, 'undecodable'],
    ['DurationSeconds over int32', { DurationSeconds: 2 ** 31 }, 'undecodable'],
    ['DurationSeconds as text', { DurationSeconds: '10' }, 'undecodable'],
    ['CreatedAt default', { CreatedAt: '0001-01-01T00:00:00' }, 'default-created-at'],
    ['CreatedAt default with offset', { CreatedAt: '0001-01-01T00:00:00+00:00' }, 'default-created-at'],
    ['CreatedAt missing', { CreatedAt: undefined }, 'default-created-at'],
    ['CreatedAt missing, StartedAt given', { CreatedAt: undefined, StartedAt: '2026-11-30T08:00:00Z' }, 'ok'],
    ['CreatedAt null, StartedAt given', { CreatedAt: null, StartedAt: '2026-11-30T08:00:00Z' }, 'ok'],
    ['CreatedAt exactly now + 1 h', { CreatedAt: '2026-11-30T13:00:00Z' }, 'ok'],
    ['CreatedAt now + 1 h + 1 s', { CreatedAt: '2026-11-30T13:00:01Z' }, 'created-at-in-future'],
    ['CreatedAt not a date', { CreatedAt: 'yesterday' }, 'undecodable'],
    ['AnonymousId missing', { AnonymousId: undefined }, 'undecodable'],
    ['UserId not a UUID', { UserId: 'bob' }, 'undecodable'],
    ['extra fields are ignored', { DeviceIp: '10.0.0.1', NewField: { a: 1 } }, 'ok'],
  ])('%s → %s', (_, o, expected) => {
    expect(reasonOf(sessionEndedPayload(o))).toBe(expected)
  })

  it('CreatedAt wins over StartedAt and is stored in UTC', () => {
    const r = sessionEndedFact(ctx, sessionEndedPayload({ CreatedAt: '2026-11-30T10:00:00+03:00', StartedAt: '2026-11-29T00:00:00Z' }), now)
    expect(E.isRight(r) && [r.right.startedAt, r.right.eventTime]).toEqual([Date.parse('2026-11-30T07:00:00Z'), Date.parse('2026-11-30T07:00:00Z')])
  })

  it('ids are normalised to lower case', () => {
    const id = guid()
    const r = sessionEndedFact(ctx, sessionEndedPayload({ SessionId: id.toUpperCase() }), now)
    expect(E.isRight(r) && r.right.sessionId).toBe(id)
  })
})
