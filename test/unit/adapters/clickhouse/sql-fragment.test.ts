import { describe, expect, it } from 'vitest'
import { date, ident, int, join, name, render, sql, uuid } from '../../../../src/adapters/clickhouse/sql-fragment.js'
import type { Guid } from '../../../../src/domain/guid.js'

const G = 'AAAAAAAA-1111-2222-3333-444444444444' as Guid

describe('the typed SQL renderer', () => {
  const q = sql`SELECT 1 FROM ${ident('db')}.t WHERE Id IN (${join([uuid(G), uuid(G)], ', ')}) AND d >= ${date('2026-11-30')} AND n < ${int(-5)} AND db = ${name('dev_stats')}`

  it('binds values as typed query parameters where the server supports them', () => {
    expect(render(q, 'bound')).toEqual({
      query: 'SELECT 1 FROM db.t WHERE Id IN ({p0:UUID}, {p1:UUID}) AND d >= {p2:Date} AND n < {p3:Int64} AND db = {p4:String}',
      params: { p0: G.toLowerCase(), p1: G.toLowerCase(), p2: '2026-11-30', p3: -5, p4: 'dev_stats' },
    })
  })

  it('renders checked literals for servers without query parameters (18.16)', () => {
    const lower = G.toLowerCase()
    expect(render(q, 'inline')).toEqual({
      query: `SELECT 1 FROM db.t WHERE Id IN (toUUID('${lower}'), toUUID('${lower}')) AND d >= toDate('2026-11-30') AND n < toInt64(-5) AND db = 'dev_stats'`,
      params: {},
    })
  })

  it.each([
    ['a UUID with a quote', () => uuid("x' OR 1=1 --" as Guid)],
    ['a non-UUID', () => uuid('not-a-uuid' as Guid)],
    ['an impossible date', () => date('2026-02-30')],
    ['a date with a suffix', () => date("2026-11-30' --")],
    ['a fraction', () => int(1.5)],
    ['an unsafe integer', () => int(2 ** 60)],
    ['NaN', () => int(Number.NaN)],
    ['an identifier with a dot', () => ident('db.t')],
    ['an identifier with a space', () => ident('x; DROP')],
    ['a name with a quote', () => name("db' OR 1=1 --")],
  ])('refuses %s', (_, build) => {
    expect(build).toThrow(TypeError)
  })

  it('joins nothing into an empty fragment and nests fragments', () => {
    expect(render(sql`a${join([], ', ')}b`, 'bound').query).toBe('ab')
    expect(render(sql`x ${sql`y ${int(1)}`} z ${int(2)}`, 'bound')).toEqual({ query: 'x y {p0:Int64} z {p1:Int64}', params: { p0: 1, p1: 2 } })
  })
})
