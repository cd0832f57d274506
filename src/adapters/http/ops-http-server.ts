import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Readiness } from '../../application/ops/readiness.js'
import type { Logger } from '../../application/ports/logger.port.js'

export interface OpsEndpoints {
  metrics(): Promise<{ readonly contentType: string; readonly body: string }>
  readiness(): Promise<Readiness>
}

export interface OpsHttpServer {
  readonly port: number
  close(): Promise<void>
}

const json = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(`${JSON.stringify(body)}\n`)
}

const route = async (req: IncomingMessage, res: ServerResponse, endpoints: OpsEndpoints): Promise<void> => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname
  if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: 'GET only' })
  switch (path) {
    case '/metrics': {
      const { contentType, body } = await endpoints.metrics()
      res.writeHead(200, { 'content-type': contentType }).end(body)
      return
    }
    case '/health/live':
      return json(res, 200, { status: 'live' })
    case '/health/ready': {
      const r = await endpoints.readiness()
      return json(res, r.ready ? 200 : 503, { status: r.ready ? 'ready' : 'not ready', reasons: r.reasons })
    }
    default:
      return json(res, 404, { error: 'not found', paths: ['/metrics', '/health/live', '/health/ready'] })
  }
}

/** /metrics, /health/live and /health/ready over node:http; resolves once listening. */
export const startOpsHttpServer = (o: { host: string; port: number; endpoints: OpsEndpoints; logger: Logger }): Promise<OpsHttpServer> => {
  const server = createServer((req, res) => {
    route(req, res, o.endpoints).catch((e: unknown) => {
      o.logger.error({ path: req.url, err: String(e) }, 'ops endpoint failed')
      if (!res.headersSent) json(res, 500, { error: String(e) })
      else res.end()
    })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(o.port, o.host, () => {
      server.off('error', reject)
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise<void>((done) => {
          server.close(() => done())
          server.closeAllConnections()
        }),
      })
    })
  })
}
