import { afterAll } from 'vitest'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { stageProgressContract } from '../../../src/testing/contracts/stage-progress.contract.js'
import { dimensionReaderContract, versionedDimensionReaderContract } from '../../../src/testing/contracts/dimension-reader.contract.js'
import { factStoreContract } from '../../../src/testing/contracts/fact-store.contract.js'
import { dimensionNamesContract } from '../../../src/testing/contracts/dimension-names.contract.js'
import { viewMergeContract } from '../../../src/testing/contracts/view-merge.contract.js'
import { cachedDimensionReaderFixture, cachedFactStoreFixture, clickhouseUrl, databaseOfTestFile, dimensionReaderFixture, factStoreFixture, stageProgressFixture } from '../../support/clickhouse.js'

// The Debian 18.16 server over HTTP: no query parameters, so this runs the inline renderer.
const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: databaseOfTestFile(import.meta.url) })
afterAll(() => session.close())

factStoreContract('ClickHouse server (HTTP)', () => factStoreFixture(session))
viewMergeContract('ClickHouse server (HTTP)', () => factStoreFixture(session))
// the raw-fact reads: the definition the serving tables are held to
factStoreContract('ClickHouse server (HTTP), day records', () => factStoreFixture(session, 'records'))
viewMergeContract('ClickHouse server (HTTP), day records', () => factStoreFixture(session, 'records'))
factStoreContract('ClickHouse server (HTTP), raw facts', () => factStoreFixture(session, 'facts'))
viewMergeContract('ClickHouse server (HTTP), raw facts', () => factStoreFixture(session, 'facts'))
dimensionNamesContract('ClickHouse server (HTTP)', () => factStoreFixture(session))
dimensionReaderContract('ClickHouse server (HTTP)', () => dimensionReaderFixture(session))
versionedDimensionReaderContract('ClickHouse server (HTTP)', () => dimensionReaderFixture(session))
dimensionReaderContract('ClickHouse server (HTTP), behind the dimension cache', () => cachedDimensionReaderFixture(session))
stageProgressContract('ClickHouse server (HTTP)', () => stageProgressFixture(session))

// The same reads through the read cache: every contract case writes, reads, writes again and
// reads again, so a cached answer that outlived a write (an insert or a merge) fails here.
factStoreContract('ClickHouse server (HTTP), cached reads', () => cachedFactStoreFixture(session))
viewMergeContract('ClickHouse server (HTTP), cached reads', () => cachedFactStoreFixture(session))
dimensionNamesContract('ClickHouse server (HTTP), cached reads', () => cachedFactStoreFixture(session))
