import type { Logger } from '../application/ports/logger.port.js'
import { startOpsHttpServer, type OpsHttpServer } from '../adapters/http/ops-http-server.js'
import type { IngestConfig } from './config.js'
import type { DevStatsIngest } from './create-dev-stats-ingest.js'

/**
 * A host's HTTP side of one ingest instance, as `npm start` serves it: /metrics (the instance's
 * registry), /health/live and /health/ready (its readiness rule). Nothing when the port is 0.
 * Start it before `ingest.start()`: /health/ready says who has not joined yet.
 */
export const serveOps = async (ingest: DevStatsIngest, http: IngestConfig['http'], logger: Logger): Promise<OpsHttpServer | undefined> => {
  if (http.port === 0) return undefined
  const { registry } = ingest
  const server = await startOpsHttpServer({
    host: http.host,
    port: http.port,
    logger,
    endpoints: {
      metrics: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
      readiness: () => ingest.readiness(),
    },
  })
  logger.info({ host: http.host, port: server.port }, 'serving /metrics, /health/live and /health/ready')
  return server
}
