// `npm start`: runs every enabled consumer against the configured broker and store until SIGTERM
// or SIGINT, then finishes the in-flight batch, commits what was inserted and leaves the groups.
import type { IngestService } from './application/ingest-service.js'
import type { Broker } from './application/ports/broker.port.js'
import type { Logger } from './application/ports/logger.port.js'
import { retriable } from './application/ports/retriable.js'
import { MissingTopicsError } from './application/ports/topic-catalog.port.js'
import { ConfluentClientMissing } from './adapters/kafka/confluent-client.js'
import { requireBrokerClient } from './composition/broker.factory.js'
import { ConfigError, loadConfig, type IngestConfig } from './composition/config.js'
import { createContainer } from './composition/container.js'
import { startOps } from './composition/ops.js'
import { checkBrokerConnection, explainClickHouseFailure, explainKafkaFailure } from './composition/startup-errors.js'
import { TOKENS } from './composition/tokens.js'

const closeable = (b: Broker): b is Broker & { close(): Promise<void> } => typeof (b as { close?: unknown }).close === 'function'

const where = (config: IngestConfig): string =>
  config.broker === 'memory' ? 'the in-memory broker' : `Kafka at ${config.kafka.brokers.join(',')} (DEV_STATS_KAFKA_BROKERS, client ${config.broker})`

const main = async (): Promise<void> => {
  let config: IngestConfig
  try {
    config = loadConfig()
    requireBrokerClient(config)
  } catch (e) {
    if (e instanceof ConfigError || e instanceof ConfluentClientMissing) {
      process.stderr.write(`${e.message}\n`)
      process.exit(2)
    }
    throw e
  }
  const container = createContainer(config)
  const logger = container.get<Logger>(TOKENS.Logger)
  const broker = container.get<Broker>(TOKENS.Broker)
  const service = container.get<IngestService>(TOKENS.IngestService)

  let ops: Awaited<ReturnType<typeof startOps>>
  let stopping: Promise<void> | undefined
  const shutdown = (signal: string) => {
    stopping ??= (async () => {
      logger.info({ signal }, 'stopping: finishing the in-flight batches')
      await service.stop()
      if (closeable(broker)) await broker.close()
      await ops?.close()
      logger.info({}, 'stopped')
    })()
    void stopping.then(() => process.exit(0), (e: unknown) => {
      logger.error({ err: String(e) }, 'unclean stop')
      process.exit(1)
    })
  }
  // on, not once: npm passes the signal on as well, and a second SIGTERM must not kill the shutdown
  process.on('SIGTERM', () => shutdown('SIGTERM'))
  process.on('SIGINT', () => shutdown('SIGINT'))

  const storeAt = config.store === 'clickhouse' ? `ClickHouse at ${config.clickhouse.url} (DEV_STATS_CLICKHOUSE_URL)` : `the ${config.store} store`
  try {
    await container.get<() => Promise<void>>(TOKENS.StoreProbe)()
  } catch (e) {
    process.stderr.write(`dev-stats ingest: cannot reach ${storeAt}: ${explainClickHouseFailure(e, config)}\n`)
    process.exit(1)
  }
  try {
    await checkBrokerConnection(broker)
  } catch (e) {
    process.stderr.write(`dev-stats ingest: cannot connect to ${where(config)}: ${explainKafkaFailure(e, config)}\n`)
    process.exit(1)
  }
  try {
    ops = await startOps(container)
  } catch (e) {
    process.stderr.write(`dev-stats ingest: cannot serve HTTP on ${config.http.host}:${config.http.port} (DEV_STATS_HTTP_PORT): ${String((e as Error).message ?? e)}\n`)
    process.exit(1)
  }
  try {
    await service.start()
  } catch (e) {
    if (e instanceof MissingTopicsError) {
      logger.error({ missing: e.topics }, 'topics missing: no consumer started')
      process.stderr.write(`dev-stats ingest: on ${where(config)}: ${e.message}\n`)
      process.exit(1)
    }
    logger.error({ err: String(e), retriable: retriable(e) }, `cannot start consuming from ${where(config)}`)
    process.stderr.write(`dev-stats ingest: cannot start consuming from ${where(config)}: ${explainKafkaFailure(e, config)}\n`)
    process.exit(1)
  }
  logger.info(
    { broker: config.broker, store: config.store, consumers: service.engines.map((e) => e.name) },
    `consuming from ${where(config)}`,
  )
}

await main()
