import { afterAll, describe } from 'vitest'
import { stageProgressContract } from '../../../src/testing/contracts/stage-progress.contract.js'
import { dimensionReaderContract } from '../../../src/testing/contracts/dimension-reader.contract.js'
import { factStoreContract } from '../../../src/testing/contracts/fact-store.contract.js'
import { viewMergeContract } from '../../../src/testing/contracts/view-merge.contract.js'
import { dimensionReaderFixture, factStoreFixture, stageProgressFixture } from '../../support/clickhouse.js'
import { clusterSession } from '../../support/clickhouse-cluster.js'

// The same contracts as the single server, through the Distributed tables of the local cluster
// (two 18.16 replicas, Replicated* local tables, migrations in their ON CLUSTER form).
const session = clusterSession('i11_cluster_contract')
describe('the store contracts on the cluster', () => {
  afterAll(() => session.close())
  factStoreContract('ClickHouse cluster (Distributed over Replicated)', () => factStoreFixture(session))
  viewMergeContract('ClickHouse cluster (Distributed over Replicated)', () => factStoreFixture(session))
  dimensionReaderContract('ClickHouse cluster (Distributed over Replicated)', () => dimensionReaderFixture(session))
  stageProgressContract('ClickHouse cluster (Distributed over Replicated)', () => stageProgressFixture(session))
})
