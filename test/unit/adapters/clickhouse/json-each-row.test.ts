import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toTableRow } from '../../../../src/adapters/clickhouse/clickhouse-row.mapper.js'
import { dateTimeText, isoDateTimeText } from '../../../../src/adapters/clickhouse/datetime-text.js'
import { jsonEachRowBodies, type InsertBody } from '../../../../src/adapters/clickhouse/json-each-row.js'
import type { FactRow } from '../../../../src/domain/fact-row.js'
import type { Guid } from '../../../../src/domain/guid.js'
import { at, dimFact, dimPath, funnelFact, id, sessionFact, upperDimFact, viewFact } from '../../../../src/testing/contracts/fact-rows.mother.js'

// The insert body must be byte for byte what the client made of toTableRow's objects before.
const objectPath = (rows: readonly FactRow[], ingestionTime: number): Map<string, string> => {
  const bodies = new Map<string, string>()
  for (const fact of rows) {
    const { table, values } = toTableRow(fact, isoDateTimeText(ingestionTime))
    bodies.set(table, (bodies.get(table) ?? '') + `${JSON.stringify(values)}\n`)
  }
  return bodies
}

const DAY = 86_400_000
const EDGES = [
  Date.parse('0001-01-01T00:00:00Z'), Date.parse('1900-01-01T00:00:00Z'), -1500.5, -1000, -1, 0, 0.5, 500, 999, 1000,
  DAY - 1, DAY - 0.5, DAY, 2 * DAY, Date.parse('2026-11-30T10:00:00.999Z'), Date.parse('2105-12-31T23:59:59Z'),
  Date.parse('2106-02-07T06:28:16Z'), Date.parse('9999-12-31T23:59:59.999Z'), Date.parse('+010000-01-01T00:00:00Z'),
]

describe('JSONEachRow bodies of the insert path', () => {
  it('dateTimeText spells every instant as the ISO path does (edges, fractions, before 1970, after 9999)', () => {
    for (const i of EDGES) expect(dateTimeText(i)).toBe(isoDateTimeText(i))
    fc.assert(fc.property(fc.integer({ min: -62_135_596_800_000, max: 300_000_000_000_000 }), (i) => dateTimeText(i) === isoDateTimeText(i)))
    expect(() => dateTimeText(Number.NaN)).toThrow(RangeError)
  })

  it('every table, nulls and edge values: the same bytes as JSON.stringify of toTableRow, rows in order', () => {
    const path = dimPath()
    const sessionId = id()
    const odd = '"quote" \\ back\nslash\t\u0000 \u2028 é 😀 \ud800 lone'
    const rows: FactRow[] = [
      sessionFact({ userId: null, durationSeconds: 0, at: EDGES[2] }),
      viewFact(path, sessionId, at('2026-11-30T10:00:00Z'), false),
      sessionFact({ factId: odd, durationSeconds: 2 ** 32 + 1, at: Date.parse('2105-12-31T23:59:59Z') }),
      viewFact(path, sessionId, at('2026-11-30T10:00:00Z'), true),
      { table: 'property_object_view_facts', row: { ...(viewFact(path, sessionId, 0).row as object), viewSourceRaw: odd, durationSeconds: Number.NaN } } as FactRow,
      funnelFact('Views', path, id(), at('2026-11-30T10:00:00Z')),
      funnelFact('DealsCompleted', path, id(), at('2105-12-31T23:59:59Z')),
      dimFact(path, at('2026-11-30T10:00:00Z'), null),
      upperDimFact('project', id() as Guid, at('2026-11-30T10:00:00Z'), odd),
      sessionFact({ durationSeconds: Number.MAX_SAFE_INTEGER, at: DAY - 0.5 }),
    ]
    for (const ingestion of [Date.parse('2026-11-30T10:00:07.5Z'), -1000]) {
      expect(asText(jsonEachRowBodies(rows, ingestion))).toEqual(objectPath(rows, ingestion))
    }
  })

  it('any text in a row, and bodies past the first buffer: the same bytes as JSON.stringify, line counts right', () => {
    const path = dimPath()
    const text = fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' }), fc.constantFrom('', '"', '\\', '\u007f', '\u0080', '\ud83d'))
    const row = fc.tuple(text, text, fc.constantFrom('session', 'view', 'funnel')).map(([factId, raw, kind]): FactRow =>
      kind === 'session'
        ? sessionFact({ factId })
        : kind === 'funnel'
          ? ({ table: 'funnel_daily', row: { ...(funnelFact('Favorites', path, id(), at('2026-11-30T10:00:00Z')).row as object), eventDate: raw } } as FactRow)
          : ({ table: 'property_object_view_facts', row: { ...(viewFact(path, id(), at('2026-11-30T10:00:00Z')).row as object), factId, viewSourceRaw: raw } } as FactRow),
    )
    fc.assert(
      fc.property(fc.array(row, { maxLength: 40 }), (rows) => {
        const bodies = jsonEachRowBodies(rows, at('2026-11-30T10:00:07Z'))
        expect(asText(bodies)).toEqual(objectPath(rows, at('2026-11-30T10:00:07Z')))
        for (const [table, body] of bodies) expect(body.lines).toBe(rows.filter((r) => (r.table === 'funnel_daily' ? 'funnel_events' : r.table) === table).length)
      }),
    )
  })
})

const asText = (bodies: ReadonlyMap<string, InsertBody>): Map<string, string> =>
  new Map([...bodies].map(([table, body]) => [table, Buffer.from(body.bytes).toString('utf8')]))
