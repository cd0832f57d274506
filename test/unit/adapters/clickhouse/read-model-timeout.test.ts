import { describe, expect, it } from 'vitest'
import type { ClickHouseSettings } from '@clickhouse/client'
import { ClickHouseDataVersions } from '../../../../src/adapters/clickhouse/clickhouse-data-versions.js'
import { ClickHouseReadModel } from '../../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { oneServerTables, type ClickHouseSession } from '../../../../src/adapters/clickhouse/clickhouse-session.js'
import { ReadTimedOut } from '../../../../src/application/ports/read-model.port.js'
import { StoreError } from '../../../../src/application/ports/store-error.js'
import type { Guid } from '../../../../src/domain/guid.js'

// Issue 38.4: every read carries the server-side time limit, and the server ending a read for it
// (code 159 or 160, as 18.16 and chdb raise them in error-classification.test.ts) becomes ReadTimedOut;
// the read cache's version probes, which every read waits on, carry the same limit.
const DEV = '6f1c0e2a-4b7d-4e5f-8a9b-0c1d2e3f4a5b' as Guid

const session = (answer: (settings: ClickHouseSettings) => unknown[]): ClickHouseSession =>
  ({ database: 'db', readTables: async () => oneServerTables('db'), select: async (_fragment: unknown, settings: ClickHouseSettings) => answer(settings) }) as unknown as ClickHouseSession

describe('ClickHouseReadModel with a time limit', () => {
  it('sends max_execution_time with every read (none when the limit is 0)', async () => {
    const seen: ClickHouseSettings[] = []
    const limited = new ClickHouseReadModel(session((s) => (seen.push(s), [])), 'serving', 7)
    await limited.funnelCounts(DEV, { fromDate: '2026-11-01', toDate: '2026-11-30' }, {})
    await limited.dimensionNames('project', [DEV])
    expect(seen.map((s) => s.max_execution_time)).toEqual([7, 7])
    const unlimited = new ClickHouseReadModel(session((s) => (seen.push(s), [])), 'serving', 0)
    await unlimited.dimensionNames('project', [DEV])
    expect(seen.at(-1)?.max_execution_time).toBeUndefined()
  })

  it.each([
    ['CLICKHOUSE_159', 'Timeout exceeded: elapsed 3.004 seconds, maximum: 3'],
    ['CLICKHOUSE_160', 'Estimated query execution time (41.4 seconds) is too long. Maximum: 3'],
  ])('turns the server\'s %s into ReadTimedOut', async (code, text) => {
    const timeout = new ClickHouseReadModel(session(() => { throw new StoreError(text, true, code) }), 'serving', 3)
    await expect(timeout.dimensionNames('project', [DEV])).rejects.toBeInstanceOf(ReadTimedOut)
    await expect(timeout.dimensionNames('project', [DEV])).rejects.toMatchObject({ seconds: 3, retriable: true })
  })

  it('leaves other failures as they are', async () => {
    const other = new ClickHouseReadModel(session(() => { throw new StoreError('gone', true, 'CLICKHOUSE_81') }), 'serving', 3)
    await expect(other.dimensionNames('project', [DEV])).rejects.toMatchObject({ code: 'CLICKHOUSE_81' })
  })
})

describe('ClickHouseDataVersions (the read cache\'s probes) with a time limit', () => {
  it('sends max_execution_time with both probes and turns the server ending one into ReadTimedOut', async () => {
    const seen: ClickHouseSettings[] = []
    const versions = new ClickHouseDataVersions(session((s) => (seen.push(s), [])), 5)
    await versions.versions()
    await versions.developerVersions([DEV])
    expect(seen.map((s) => s.max_execution_time)).toEqual([5, 5])
    const ended = new ClickHouseDataVersions(session(() => { throw new StoreError('Timeout exceeded', true, 'CLICKHOUSE_159') }), 5)
    await expect(ended.developerVersions([DEV])).rejects.toMatchObject({ name: 'ReadTimedOut', seconds: 5 })
  })
})
