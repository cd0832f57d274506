import Fastify, { type FastifyReply } from 'fastify'
import type { AddressInfo } from 'node:net'
import type { Readiness } from '../../application/ops/readiness.js'
import type { Logger } from '../../application/ports/logger.port.js'
import { PortError } from '../../application/ports/retriable.js'
import { problem, sendProblem } from './read-api/problem.js'
import { readApiPlugin, type ReadApiOptions } from './read-api/read-api.plugin.js'

export interface OpsEndpoints {
  metrics(): Promise<{ readonly contentType: string; readonly body: string }>
  readiness(): Promise<Readiness>
}

export interface OpsHttpServer {
  readonly port: number
  close(): Promise<void>
}

const OPS_PATHS = ['/metrics', '/health/live', '/health/ready']
const READ_PATHS = ['/v1/session-metrics', '/v1/conversion-funnel', '/v1/openapi.json']

/**
 * What a failure is worth in the log. A client's own error (a rejected query, a 429 past its rate
 * limit) is not logged: a burst would flood the log with it. A store that refused or ended a read
 * (overloaded, timed out, unreachable) is a warning, answered 503 with Retry-After; anything else
 * is an error.
 */
const failureLevel = (error: Error & { validation?: unknown; statusCode?: number }): 'warn' | 'error' | undefined => {
  if (error.validation || (error.statusCode !== undefined && error.statusCode < 500)) return undefined
  return error instanceof PortError && error.retriable ? 'warn' : 'error'
}

const json = (reply: FastifyReply, status: number, body: unknown): FastifyReply =>
  reply.code(status).type('application/json').send(`${JSON.stringify(body)}\n`)

/**
 * /metrics, /health/live and /health/ready on one Fastify server, plus the read API (plugin) when
 * `readApi` is given: without it the /v1 routes do not exist (404). Read-only: other methods are
 * 405. Resolves once listening.
 */
export const startOpsHttpServer = async (o: { host: string; port: number; endpoints: OpsEndpoints; logger: Logger; readApi?: ReadApiOptions }): Promise<OpsHttpServer> => {
  const app = Fastify({ logger: false, forceCloseConnections: true })
  const paths = o.readApi ? [...OPS_PATHS, ...READ_PATHS] : OPS_PATHS
  const preflight = (o.readApi?.corsOrigins?.length ?? 0) > 0
  app.addHook('onRequest', async (request, reply) => {
    if (preflight && request.method === 'OPTIONS' && request.url.startsWith('/v1/')) return
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendProblem(reply.header('allow', 'GET, HEAD'), problem('method-not-allowed', 'every endpoint here is read-only: GET or HEAD'))
  })
  app.addHook('onError', async (request, _reply, error) => {
    const level = failureLevel(error)
    if (level) o.logger[level]({ path: request.url, err: String(error) }, 'HTTP endpoint failed')
  })
  // the failure's text stays in the log: it may name hosts, tables or inputs
  app.setErrorHandler(async (_error, _request, reply) => sendProblem(reply, problem('internal-error', 'the request failed; the service log has the details')))
  app.setNotFoundHandler(async (_request, reply) => json(reply, 404, { error: 'not found', paths }))
  app.get('/metrics', async (_request, reply) => {
    const { contentType, body } = await o.endpoints.metrics()
    return reply.type(contentType).send(body)
  })
  app.get('/health/live', async (_request, reply) => json(reply, 200, { status: 'live' }))
  app.get('/health/ready', async (_request, reply) => {
    const r = await o.endpoints.readiness()
    return json(reply, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', reasons: r.reasons })
  })
  if (o.readApi) await app.register(readApiPlugin, o.readApi)
  await app.listen({ port: o.port, host: o.host })
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() }
}
