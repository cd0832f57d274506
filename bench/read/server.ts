// The read benchmark's host: the read API plugin on a Fastify server of its own, on the bench
// database of the ClickHouse server. Prints `listening <port>` once ready; stops on SIGTERM.
import Fastify from 'fastify'
import type { AddressInfo } from 'node:net'
import { ClickHouseReadModel } from '../../src/adapters/clickhouse/clickhouse-read-model.js'
import { ClickHouseStageProgressReader } from '../../src/adapters/clickhouse/clickhouse-stage-progress.js'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { createTokenVerifier, readApiPlugin } from '../../src/adapters/http/read-api/index.js'
import { getConversionFunnel } from '../../src/application/read/get-conversion-funnel.js'
import { getDeveloperSessionMetrics } from '../../src/application/read/get-developer-session-metrics.js'
import { getFunnelScope } from '../../src/application/read/get-funnel-scope.js'
import { storeFreshness } from '../../src/application/read/stage-freshness.js'

const { BENCH_CLICKHOUSE_URL: url = '', BENCH_DATABASE: database = '', BENCH_SECRET: secret = '' } = process.env
const session = serverSession({ url, user: 'default', password: '', database })
const readModel = new ClickHouseReadModel(session)
const app = Fastify()
await app.register(readApiPlugin, {
  read: {
    sessionMetrics: getDeveloperSessionMetrics(readModel),
    conversionFunnel: getConversionFunnel(readModel, storeFreshness(new ClickHouseStageProgressReader(session), (stage) => stage !== 'Leads')),
    funnelScope: getFunnelScope(readModel),
  },
  verifyToken: createTokenVerifier({ key: { kind: 'secret', secret: new TextEncoder().encode(secret) } }),
})
await app.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(`listening ${(app.server.address() as AddressInfo).port}\n`)
process.on('SIGTERM', () => {
  void app.close().then(() => session.close()).then(() => process.exit(0))
})
