// A host service that embeds dev-stats ingest the way a team would: the library runs inside this
// process on the host's own logger, metrics registry, HTTP server and lifecycle.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { pino } from 'pino'
import { Registry, collectDefaultMetrics } from 'prom-client'
import { asGuid, configFromEnv, createDevStatsIngest, StartupError, type DevStatsIngest } from 'dev-stats-ingest'

const logger = pino({ name: 'host-service' })
const registry = new Registry()
collectDefaultMetrics({ register: registry })

const ingest: DevStatsIngest = createDevStatsIngest({
  config: configFromEnv(process.env),
  logger: logger.child({ component: 'dev-stats-ingest' }),
  registry,
})

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

// The host owns authentication; here the developer comes from a header its gateway has verified.
const routes = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
  const url = new URL(req.url ?? '/', 'http://host')
  if (url.pathname === '/metrics') {
    res.writeHead(200, { 'content-type': registry.contentType }).end(await registry.metrics())
    return
  }
  if (url.pathname === '/ready') {
    const r = await ingest.readiness()
    return json(res, r.ready ? 200 : 503, r)
  }
  const developerId = asGuid(req.headers['x-developer-id'])
  if (url.pathname === '/my/sessions') {
    const from = Date.parse(url.searchParams.get('from') ?? '')
    const to = Date.parse(url.searchParams.get('to') ?? '')
    if (Number.isNaN(from) || Number.isNaN(to)) return json(res, 400, { error: 'from and to must be ISO times' })
    const result = await ingest.read.sessionMetrics(developerId ? { developerId } : null, { from, to })
    return result._tag === 'Right' ? json(res, 200, result.right) : json(res, 403, result.left)
  }
  if (url.pathname === '/my/funnel') {
    const range = { fromDate: url.searchParams.get('from') ?? '', toDate: url.searchParams.get('to') ?? '' }
    const result = await ingest.read.conversionFunnel(developerId ? { developerId } : null, range)
    return result._tag === 'Right' ? json(res, 200, result.right) : json(res, 403, result.left)
  }
  json(res, 404, { error: 'not found' })
}

const server = createServer((req, res) => {
  routes(req, res).catch((e: unknown) => {
    logger.error({ err: String(e) }, 'request failed')
    if (!res.headersSent) json(res, 500, { error: 'internal error' })
  })
})

const shutdown = async (signal: string): Promise<void> => {
  logger.info({ signal }, 'host stopping')
  await ingest.stop()
  await new Promise<void>((done) => server.close(() => done()))
  logger.info({}, 'host stopped')
}
process.once('SIGTERM', () => void shutdown('SIGTERM'))
process.once('SIGINT', () => void shutdown('SIGINT'))

const port = Number(process.env.HOST_PORT ?? 8080)
server.listen(port, '127.0.0.1', () => logger.info({ port }, 'host listening'))
try {
  const applied = await ingest.migrate()
  logger.info({ applied }, 'dev-stats schema up to date')
  await ingest.start()
  logger.info({ consumers: ingest.consumers.length }, 'host ready')
} catch (e) {
  logger.error({ failure: e instanceof StartupError ? e.failure : 'unexpected', err: String(e) }, 'dev-stats ingest did not start')
  await shutdown('start-failed')
  process.exitCode = 1
}
