import { describe, expect, it } from 'vitest'
import { toStoreError } from '../../../../src/adapters/clickhouse/clickhouse-error.translator.js'
import { StoreError } from '../../../../src/application/ports/store-error.js'

const errno = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:18123`), { code })
const server = (code: number, text: string) => new Error(`Code: ${code}, e.displayText() = DB::Exception: ${text}, e.what() = DB::Exception`)
const chdb = (code: string, text: string) => Object.assign(new Error(text), { code })

describe('ClickHouse errors become StoreErrors that say whether to retry', () => {
  it.each([
    ['connection refused', errno('ECONNREFUSED'), true],
    ['connection reset', errno('ECONNRESET'), true],
    ['socket hang up', new Error('socket hang up'), true],
    ['client timeout', new Error('Timeout error.'), true],
    ['HTTP 503 without a ClickHouse body', new Error('Unexpected response with status code 503'), true],
    ['too many parts (252)', server(252, 'Too many parts (300). Merges are processing significantly slower than inserts'), true],
    ['memory limit (241)', server(241, 'Memory limit exceeded'), true],
    ['timeout exceeded (159)', server(159, 'Timeout exceeded'), true],
    ['syntax error (62)', server(62, 'Syntax error: failed at position 1'), false],
    ['unknown table (60)', server(60, "Table pin_dev_stats.x doesn't exist"), false],
    ['unknown database (81)', server(81, "Database nope doesn't exist"), false],
    ['type mismatch (53)', server(53, 'Type mismatch'), false],
    ['cannot parse input (27)', server(27, 'Cannot parse input'), false],
    ['chdb syntax error', chdb('62', 'Syntax error'), false],
    ['chdb too many parts', chdb('252', 'Too many parts'), true],
    ['a bug in our code', new TypeError('x is undefined'), false],
  ])('%s', (_, error, retriable) => {
    const e = toStoreError(error)
    expect(e).toBeInstanceOf(StoreError)
    expect(e.retriable).toBe(retriable)
    expect(e.cause).toBe(error)
  })

  it('keeps the server code in the StoreError code and passes StoreErrors through', () => {
    expect(toStoreError(server(252, 'Too many parts')).code).toBe('CLICKHOUSE_252')
    const already = new StoreError('x', true, 'X')
    expect(toStoreError(already)).toBe(already)
  })
})
