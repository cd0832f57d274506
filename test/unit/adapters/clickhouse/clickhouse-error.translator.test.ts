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
    ['too many partitions in one insert block (252): split the batch, do not wait', server(252, "Too many partitions for single INSERT block (more than 100). The limit is controlled by 'max_partitions_per_insert_block' setting."), false],
    ['memory limit (241)', server(241, 'Memory limit exceeded'), true],
    ['timeout exceeded (159)', server(159, 'Timeout exceeded'), true],
    ['syntax error (62): our SQL, not the rows', server(62, 'Syntax error: failed at position 1'), true],
    ['unknown table (60): schema, not the rows', server(60, "Table pin_dev_stats.x doesn't exist"), true],
    ['unknown database (81)', server(81, "Database nope doesn't exist"), true],
    ['type mismatch (53)', server(53, 'Type mismatch'), false],
    ['cannot parse input (27)', server(27, 'Cannot parse input: expected " before: x'), false],
    ['negative unsigned (72), as 18.16 says it', server(72, "Unsigned type must not contain '-' symbol: (while read the value of key a): (at row 1)"), false],
    ['bad datetime (41)', server(41, 'Cannot parse datetime: (while read the value of key d): (at row 1)'), false],
    ['argument out of bound (69)', server(69, 'Argument out of bound'), false],
    ['cannot parse text (6)', server(6, 'Cannot parse text'), false],
    ['chdb parse error (code in the text)', Object.assign(new Error("Code: 72. DB::Exception: Unsigned type must not contain '-' symbol"), { code: 'CHDB_QUERY' }), false],
    ['chdb syntax error', chdb('62', 'Syntax error'), true],
    ['an unexplained error is retried, not dead-lettered', new Error('something odd'), true],
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
