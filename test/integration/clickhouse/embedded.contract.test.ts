import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe } from 'vitest'
import { embeddedSession } from '../../../src/adapters/clickhouse/embedded-session.factory.js'
import type { Dialect } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { dimensionReaderContract, versionedDimensionReaderContract } from '../../../src/testing/contracts/dimension-reader.contract.js'
import { factStoreContract } from '../../../src/testing/contracts/fact-store.contract.js'
import { stageProgressContract } from '../../../src/testing/contracts/stage-progress.contract.js'
import { dimensionNamesContract } from '../../../src/testing/contracts/dimension-names.contract.js'
import { viewMergeContract } from '../../../src/testing/contracts/view-merge.contract.js'
import { cachedFactStoreFixture, cachedDimensionReaderFixture, databaseOfTestFile, dimensionReaderFixture, factStoreFixture, stageProgressFixture } from '../../support/clickhouse.js'

// chdb (a current ClickHouse in-process) with bound query parameters, then the same suite with
// the inline renderer forced, so the 18.16 fallback path is proven on a current ClickHouse too.
// chdb allows one open data directory per process: both runs share it, one after the other.
const dir = mkdtempSync(join(tmpdir(), 'dev-stats-chdb-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const suite = (dialect: Dialect) =>
  describe(`embedded, ${dialect} parameters`, () => {
    const session = embeddedSession({ path: dir, database: databaseOfTestFile(import.meta.url) }, { dialect })
    afterAll(() => session.close())
    factStoreContract(`embedded chdb (${dialect})`, () => factStoreFixture(session))
    viewMergeContract(`embedded chdb (${dialect})`, () => factStoreFixture(session))
    factStoreContract(`embedded chdb (${dialect}), day records`, () => factStoreFixture(session, 'records'))
    factStoreContract(`embedded chdb (${dialect}), raw facts`, () => factStoreFixture(session, 'facts'))
    viewMergeContract(`embedded chdb (${dialect}), raw facts`, () => factStoreFixture(session, 'facts'))
    viewMergeContract(`embedded chdb (${dialect}), cached reads`, () => cachedFactStoreFixture(session))
    dimensionNamesContract(`embedded chdb (${dialect})`, () => factStoreFixture(session))
    dimensionReaderContract(`embedded chdb (${dialect})`, () => dimensionReaderFixture(session))
    versionedDimensionReaderContract(`embedded chdb (${dialect})`, () => dimensionReaderFixture(session))
    dimensionReaderContract(`embedded chdb (${dialect}), behind the dimension cache`, () => cachedDimensionReaderFixture(session))
    stageProgressContract(`embedded chdb (${dialect})`, () => stageProgressFixture(session))
  })

suite('bound')
suite('inline')
