import type { Container } from 'inversify'
import { Registry } from 'prom-client'
import type { IngestService } from '../application/ingest-service.js'
import { consumerHealthOf, laggingConsumersOf } from '../application/ops/consumer-health.js'
import { LagMonitor } from '../application/ops/lag-monitor.js'
import { readiness, type StoreCheck } from '../application/ops/readiness.js'
import type { Broker } from '../application/ports/broker.port.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { ConsumerLagReader } from '../application/ports/consumer-lag.port.js'
import type { IngestMetrics } from '../application/ports/metrics.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { startOpsHttpServer, type OpsHttpServer } from '../adapters/http/ops-http-server.js'
import { AdminLagReader, type LagAdmin } from '../adapters/kafka/admin-lag-reader.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import { InMemoryLagReader } from '../adapters/memory/in-memory-lag-reader.js'
import { PromMetrics } from '../adapters/observability/prom-metrics.js'
import { registerOpsGauges } from '../adapters/observability/prom-ops-gauges.js'
import type { IngestConfig } from './config.js'
import { TOKENS } from './tokens.js'

const STORE_PING_TIMEOUT_MS = 3000

const withAdmin = (b: Broker): b is Broker & { admin(): LagAdmin } => typeof (b as { admin?: unknown }).admin === 'function'

/** The lag reader of the configured broker: its admin client, or the in-memory log. */
export const lagReaderFor = (broker: Broker): ConsumerLagReader => {
  if (broker instanceof InMemoryBroker) return new InMemoryLagReader(broker.log)
  if (withAdmin(broker)) return new AdminLagReader(() => broker.admin())
  throw new Error('this broker adapter has no admin API for consumer lag')
}

const storeCheck = async (probe: () => Promise<void>): Promise<StoreCheck> => {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${STORE_PING_TIMEOUT_MS} ms`)), STORE_PING_TIMEOUT_MS)
  })
  try {
    await Promise.race([probe(), timeout])
    return { ok: true }
  } catch (e) {
    return { ok: false, error: e instanceof Error ? e.message : String(e) }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * `npm start`'s operations side: consumer lag refreshed from the broker, the ops gauges on the
 * metrics registry, and the HTTP server (/metrics, /health/live, /health/ready). Nothing when
 * DEV_STATS_HTTP_PORT=0. Start it before the consumers: /health/ready says who has not joined yet.
 */
export const startOps = async (container: Container): Promise<OpsHttpServer | undefined> => {
  const { http } = container.get<IngestConfig>(TOKENS.Config)
  if (http.port === 0) return undefined
  const service = container.get<IngestService>(TOKENS.IngestService)
  const clock = container.get<Clock>(TOKENS.Clock)
  const logger = container.get<Logger>(TOKENS.Logger)
  const probe = container.get<() => Promise<void>>(TOKENS.StoreProbe)
  const metrics = container.get<IngestMetrics>(TOKENS.Metrics)
  const registry = metrics instanceof PromMetrics ? metrics.registry : new Registry()
  const monitor = new LagMonitor(lagReaderFor(container.get<Broker>(TOKENS.Broker)), laggingConsumersOf(service), logger, http.lagIntervalMs)
  registerOpsGauges(registry, { now: () => clock.now(), consumers: () => consumerHealthOf(service), lagOf: (c) => monitor.lagOf(c) })
  const server = await startOpsHttpServer({
    host: http.host,
    port: http.port,
    logger,
    endpoints: {
      metrics: async () => ({ contentType: registry.contentType, body: await registry.metrics() }),
      readiness: async () => {
        const store = await storeCheck(probe)
        return readiness({ now: clock.now(), consumers: consumerHealthOf(service), store, maxRetryMs: http.readyMaxRetrySeconds * 1000 })
      },
    },
  })
  monitor.start()
  logger.info({ host: http.host, port: server.port }, 'serving /metrics, /health/live and /health/ready')
  return {
    port: server.port,
    close: async () => {
      await server.close()
      await monitor.stop()
    },
  }
}
