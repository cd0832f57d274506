import * as E from 'fp-ts/lib/Either.js'
import { describe, expect, it } from 'vitest'
import { parameterErrors } from '../../../../src/adapters/http/read-api/query-validator.js'
import { conversionFunnelQuery, errorResponses, sessionMetricsQuery } from '../../../../src/adapters/http/read-api/read-api.schemas.js'
import { DAY_PATTERN, FIRST_DAY, hierarchyFilter, LAST_DAY, MAX_RANGE_DAYS, readPeriod } from '../../../../src/adapters/http/read-api/read-query.js'

const DAY = 86_400_000

describe('read API parameter rules', () => {
  it('a period is the inclusive days as a date range and as the half-open instant interval', () => {
    expect(readPeriod({ from: '2026-11-01', to: '2026-11-30' })).toEqual(
      E.right({ range: { fromDate: '2026-11-01', toDate: '2026-11-30' }, period: { from: Date.parse('2026-11-01T00:00:00Z'), to: Date.parse('2026-12-01T00:00:00Z') } }),
    )
    expect(readPeriod({ from: '2026-11-30', to: '2026-11-30' })).toEqual(
      E.right({ range: { fromDate: '2026-11-30', toDate: '2026-11-30' }, period: { from: Date.parse('2026-11-30T00:00:00Z'), to: Date.parse('2026-11-30T00:00:00Z') + DAY } }),
    )
  })

  it.each([
    [{ from: '2024-01-01', to: '2024-12-31' }, 'a leap year: 366 days'],
    [{ from: '2025-03-01', to: '2026-03-01' }, '366 days across a non-leap February'],
    [{ from: '1970-01-01', to: '1970-01-01' }, 'the first day'],
    [{ from: '2099-12-31', to: '2099-12-31' }, 'the last day'],
  ])('accepts %j (%s)', (q) => {
    expect(E.isRight(readPeriod(q))).toBe(true)
  })

  it.each([
    [{ from: '2026-02-29', to: '2026-03-01' }, [{ parameter: 'from', detail: 'must be a calendar day YYYY-MM-DD' }]],
    [{ from: '2026-11-01', to: '2026-13-01' }, [{ parameter: 'to', detail: 'must be a calendar day YYYY-MM-DD' }]],
    [{ from: "2026-11-01' OR 1=1 --", to: '2026-11-02' }, [{ parameter: 'from', detail: 'must be a calendar day YYYY-MM-DD' }]],
    [{ from: '2026-11-01T00:00:00Z', to: '26-11-02' }, [{ parameter: 'from', detail: 'must be a calendar day YYYY-MM-DD' }, { parameter: 'to', detail: 'must be a calendar day YYYY-MM-DD' }]],
    [{ from: '1969-12-31', to: '2026-01-01' }, [{ parameter: 'from', detail: 'must be between 1970-01-01 and 2099-12-31' }]],
    [{ from: '2099-01-01', to: '2100-01-01' }, [{ parameter: 'to', detail: 'must be between 1970-01-01 and 2099-12-31' }]],
    [{ from: '2026-11-02', to: '2026-11-01' }, [{ parameter: 'to', detail: 'must not be before from' }]],
    [{ from: '2025-01-01', to: '2026-01-02' }, [{ parameter: 'to', detail: 'must be at most 366 days from from, both included' }]],
  ])('rejects %j', (q, errors) => {
    expect(readPeriod(q)).toEqual(E.left(errors))
  })

  it('takes the longest range as an option', () => {
    expect(readPeriod({ from: '2026-11-01', to: '2026-11-08' }, 7)).toEqual(E.left([{ parameter: 'to', detail: 'must be at most 7 days from from, both included' }]))
    expect(E.isRight(readPeriod({ from: '2026-11-01', to: '2026-11-07' }, 7))).toBe(true)
  })

  it('hierarchy filters: GUIDs in any case kept lower-case, anything else named', () => {
    const id = '0F8FAD5B-D9CB-469F-A165-70867728950E'
    expect(hierarchyFilter({})).toEqual(E.right({}))
    expect(hierarchyFilter({ projectId: id, layoutId: id.toLowerCase() })).toEqual(E.right({ projectId: id.toLowerCase(), layoutId: id.toLowerCase() }))
    expect(hierarchyFilter({ buildingId: `${id}' OR '1'='1`, layoutGroupId: 'urn:uuid:0f8fad5b-d9cb-469f-a165-70867728950e', projectId: id })).toEqual(
      E.left([{ parameter: 'buildingId', detail: 'must be a GUID' }, { parameter: 'layoutGroupId', detail: 'must be a GUID' }]),
    )
  })

  it('validation errors of the query schema become one entry per parameter, never echoing a value', () => {
    expect(parameterErrors([
      { keyword: 'required', instancePath: '', params: { missingProperty: 'to' } },
      { keyword: 'additionalProperties', instancePath: '', params: { additionalProperty: 'developerId' } },
      { keyword: 'format', instancePath: '/from', params: { format: 'date' } },
      { keyword: 'pattern', instancePath: '/from', params: { pattern: '…' } },
      { keyword: 'type', instancePath: '/projectId', params: { type: 'string' } },
      { keyword: 'pattern', instancePath: '/layoutId', params: {} },
    ])).toEqual([
      { parameter: 'to', detail: 'is required' },
      { parameter: 'developerId', detail: 'is not a parameter of this route' },
      { parameter: 'from', detail: 'must be a calendar day YYYY-MM-DD between 1970-01-01 and 2099-12-31' },
      { parameter: 'projectId', detail: 'must be given once' },
      { parameter: 'layoutId', detail: 'must be a GUID' },
    ])
  })
})

describe('the OpenAPI document states the range the server enforces', () => {
  it('from the one constant the validator uses', () => {
    const text = JSON.stringify([sessionMetricsQuery, conversionFunnelQuery, errorResponses])
    expect(text).toContain(`at most ${MAX_RANGE_DAYS} days after`)
    expect(text).toContain(`at most ${MAX_RANGE_DAYS} days, GUID filters`)
    expect(text).not.toMatch(new RegExp(`at most (?!${MAX_RANGE_DAYS})\\d+ days`))
    const last = (days: number) => new Date(Date.UTC(2025, 0, 1) + (days - 1) * 86_400_000).toISOString().slice(0, 10)
    expect(E.isRight(readPeriod({ from: '2025-01-01', to: last(MAX_RANGE_DAYS) }))).toBe(true)
    expect(E.isLeft(readPeriod({ from: '2025-01-01', to: last(MAX_RANGE_DAYS + 1) }))).toBe(true)
  })
})

describe("the OpenAPI document's day pattern is the server's year range", () => {
  it('accepts the first and last day and refuses the years around them, from the same constants', () => {
    const day = new RegExp(DAY_PATTERN)
    for (const ok of [FIRST_DAY, LAST_DAY, '2026-02-28', '2000-12-01']) expect(day.test(ok), ok).toBe(true)
    for (const bad of ['1969-12-31', '2100-01-01', '4633-01-01', '0001-01-01', '2026-13-01', '2026-00-10', '2026-01-32']) expect(day.test(bad), bad).toBe(false)
    // whatever the pattern lets through, the server's check agrees on the year
    expect(E.isRight(readPeriod({ from: FIRST_DAY, to: FIRST_DAY }))).toBe(true)
    expect(E.isRight(readPeriod({ from: LAST_DAY, to: LAST_DAY }))).toBe(true)
  })
})
