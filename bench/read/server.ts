// The read benchmark's host: the read API plugin on a Fastify server of its own, over the read
// side the library composes for a host (createDevStatsIngest: the ClickHouse read model behind the
// read cache unless BENCH_READ_CACHE_ENTRIES=0; BENCH_READ_CACHE_MAX_STALE_SECONDS; whole days from the day
// records) on the bench database. Prints `listening <port>`
// once ready; stops on SIGTERM.
import Fastify from 'fastify'
import type { AddressInfo } from 'node:net'
import { createTokenVerifier, readApiPlugin } from '../../src/adapters/http/read-api/index.js'
import { createDevStatsIngest } from '../../src/composition/create-dev-stats-ingest.js'

const { BENCH_CLICKHOUSE_URL: url = '', BENCH_DATABASE: database = '', BENCH_SECRET: secret = '', BENCH_READ_CACHE_ENTRIES: entries = '10000', BENCH_READ_CACHE_MAX_STALE_SECONDS: stale = '0' } = process.env
const ingest = createDevStatsIngest({
  config: { store: 'clickhouse', clickhouse: { url, database }, readCache: { maxEntries: Number(entries), maxStaleSeconds: Number(stale) } },
})
const app = Fastify()
await app.register(readApiPlugin, {
  read: ingest.read,
  verifyToken: createTokenVerifier({ key: { kind: 'secret', secret: new TextEncoder().encode(secret) } }),
})
await app.listen({ port: 0, host: '127.0.0.1' })
process.stdout.write(`listening ${(app.server.address() as AddressInfo).port}\n`)
process.on('SIGTERM', () => {
  void app.close().then(() => ingest.stop()).then(() => process.exit(0))
})
