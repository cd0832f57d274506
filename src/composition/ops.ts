import type { Logger } from '../application/ports/logger.port.js'
import { startOpsHttpServer, type OpsHttpServer } from '../adapters/http/ops-http-server.js'
import { createTokenVerifier, type TokenSettings } from '../adapters/http/read-api/bearer-token.js'
import type { IngestConfig } from './config.js'
import type { DevStatsIngest } from './create-dev-stats-ingest.js'
import type { readApiHttpSettings } from './read-api-config.js'

type ReadApiHttpSettings = ReturnType<typeof readApiHttpSettings>

/** What the HTTP side answers from: one ingest instance, or the primary of `start --workers N` speaking for its workers. */
export type OpsSource = Pick<DevStatsIngest, 'readiness' | 'read' | 'config'> & { readonly registry: Pick<DevStatsIngest['registry'], 'contentType' | 'metrics'> }

/**
 * A host's HTTP side of one ingest instance, as `npm start` serves it: /metrics (the instance's
 * registry), /health/live and /health/ready (its readiness rule), and the read API (/v1/…) when
 * token settings are given (read-api-config.ts; no key set: no read API). Nothing when the port
 * is 0. Start it before `ingest.start()`: /health/ready says who has not joined yet.
 */
export const serveOps = async (ingest: OpsSource, http: IngestConfig['http'], logger: Logger, readApi?: TokenSettings, readApiHttp: ReadApiHttpSettings = { corsOrigins: [] }): Promise<OpsHttpServer | undefined> => {
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
    ...(readApi ? { readApi: { read: ingest.read, verifyToken: createTokenVerifier(readApi), readTimeoutSeconds: ingest.config.readQueries.timeoutSeconds, ...readApiHttp } } : {}),
  })
  const served = readApi ? '/metrics, /health/live, /health/ready and the read API (/v1/session-metrics, /v1/conversion-funnel, /v1/openapi.json)' : '/metrics, /health/live and /health/ready'
  logger.info({ host: http.host, port: server.port, readApi: readApi ? readApi.key.kind : 'off', ...(readApi ? { rateLimit: readApiHttp.rateLimit ?? 'off', corsOrigins: readApiHttp.corsOrigins } : {}) }, `serving ${served}`)
  return server
}
