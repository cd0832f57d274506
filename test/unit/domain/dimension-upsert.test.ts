import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { decodeWith } from '../../../src/domain/decode-with.js'
import { describe, expect, it } from 'vitest'
import { upperDimRow } from '../../../src/domain/dimension-upsert.js'
import { poison } from '../../../src/domain/poison.js'

const NOW = Date.parse('2026-11-30T12:00:00Z')
const [DEV, PRJ, BLD, LG, LAY] = ['11111111-1111-4111-8111-111111111111', '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333', '44444444-4444-4444-8444-444444444444', '55555555-5555-4555-8555-555555555555']
const EMPTY = '00000000-0000-0000-0000-000000000000'
const AT = '2026-11-30T10:00:00+03:00'
const at = Date.parse(AT)

describe('upper dimension upserts (spec §7)', () => {
  it('layout: its Id, every parent id by name, Name, UpsertedAt as version in µs; anything else ignored', () => {
    const payload = { Id: LAY, DeveloperId: DEV, ProjectId: PRJ, BuildingId: BLD, LayoutGroupId: LG, UpsertedAt: AT, Name: '2-room', Price: 1 }
    expect(upperDimRow('layout')(payload, NOW)).toEqual(
      E.right({
        level: 'layout', id: LAY, parents: { DeveloperId: DEV, ProjectId: PRJ, BuildingId: BLD, LayoutGroupId: LG },
        name: '2-room', upsertedAt: at, version: at * 1000,
      }),
    )
  })

  it('developer: no parents; a missing Name is null', () => {
    expect(upperDimRow('developer')({ Id: DEV, UpsertedAt: AT }, NOW)).toEqual(
      E.right({ level: 'developer', id: DEV, parents: {}, name: null, upsertedAt: at, version: at * 1000 }),
    )
  })

  it.each([
    ['missing Id', 'project', { DeveloperId: DEV, UpsertedAt: AT }, 'undecodable'],
    ['missing parent id of its path', 'building', { Id: BLD, DeveloperId: DEV, UpsertedAt: AT }, 'undecodable'],
    ['missing UpsertedAt', 'developer', { Id: DEV }, 'undecodable'],
    ['Guid.Empty Id', 'developer', { Id: EMPTY, UpsertedAt: AT }, 'empty-id'],
    ['Guid.Empty parent', 'project', { Id: PRJ, DeveloperId: EMPTY, UpsertedAt: AT }, 'empty-id'],
    ['default UpsertedAt', 'developer', { Id: DEV, UpsertedAt: '0001-01-01T00:00:00+00:00' }, 'default-created-at'],
    ['future UpsertedAt', 'developer', { Id: DEV, UpsertedAt: '2026-11-30T13:00:01Z' }, 'created-at-in-future'],
    ['UpsertedAt before 1970', 'developer', { Id: DEV, UpsertedAt: '1969-12-31T23:59:59Z' }, 'out-of-range'],
  ] as const)('%s → %s', (_, level, payload, reason) => {
    const result = upperDimRow(level)(payload, NOW)
    expect(E.isLeft(result) && result.left.reason).toBe(reason)
  })

  it('the undecodable detail names the field', () => {
    expect(upperDimRow('project')({ Id: PRJ, UpsertedAt: AT }, NOW)).toEqual(
      E.left(poison('undecodable', 'DeveloperId: expected a UUID, got nothing')),
    )
  })
})

describe('decodeWith', () => {
  it('a decoded payload is Right, a rejected one is poison undecodable naming the field', () => {
    const codec = t.type({ N: t.number })
    expect(decodeWith(codec)({ N: 1 })).toEqual(E.right({ N: 1 }))
    expect(decodeWith(codec)({ N: 'one' })).toEqual(E.left(poison('undecodable', 'N: expected number, got a string')))
  })
})
