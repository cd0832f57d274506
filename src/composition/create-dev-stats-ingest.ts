import { Registry } from 'prom-client'
import type { BacklogBoard } from '../application/engine/backlog.js'
import type { MemoryBudget } from '../application/engine/memory-budget.js'
import type { PartsPressure } from '../application/engine/parts-pressure.js'
import type { DimensionProgressTracker } from '../application/engine/dimension-progress.js'
import type { LagObserver } from '../application/ops/lag-monitor.js'
import type { IngestService } from '../application/ingest-service.js'
import type { Readiness } from '../application/ops/readiness.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { retriable } from '../application/ports/retriable.js'
import { MissingTopicsError } from '../application/ports/topic-catalog.port.js'
import { requireChdb } from '../adapters/clickhouse/chdb-client.js'
import { PromMetrics } from '../adapters/observability/prom-metrics.js'
import { consumersOf } from './consumers.js'
import { silentLogger } from '../adapters/observability/silent-logger.js'
import { requireBrokerClient, type BrokerAdapters } from './broker.factory.js'
import type { IngestConfig } from './config.js'
import { resolveConfig, type IngestSettings } from './config-input.js'
import { createContainer } from './container.js'
import { LinkRetention } from '../application/serving/link-retention.js'
import { ServingReconciliation } from '../application/serving/serving-reconciliation.js'
import { ingestOps } from './ingest-ops.js'
import type { PortOverrides } from './port-overrides.js'
import { clickhouseStartupFailure, explainClickHouseFailure, explainKafkaFailure } from './startup-errors.js'
import { NETWORK_FAILURES } from '../adapters/connection-failure.js'
import { redactUrl } from './security-config.js'
import { StartupError } from './startup-error.js'
import type { StoreAdapters } from './store.factory.js'
import { readSideOf, type ReadSide } from './read-side.js'
import { TOKENS } from './tokens.js'

export type { ReadSide }

export interface DevStatsIngestOptions {
  /** Settings; what is left out takes its documented default. `configFromEnv(process.env)` reads the variables of docs/configuration.md. */
  readonly config?: IngestSettings
  /** Where the library logs: a pino logger, or any object with these four methods. Default: nothing is logged. */
  readonly logger?: Logger
  /** The host's prom-client registry, where the `dev_stats_*` metrics are registered. Default: a registry of this instance's own. */
  readonly registry?: Registry
  /** The host's own implementation of any port, in place of the configured one. */
  readonly ports?: Omit<PortOverrides, 'logger' | 'metrics'>
}

export interface DevStatsIngest {
  /**
   * Checks the store and the broker, then every enabled consumer joins its group. Throws
   * StartupError (`failure` says which check) and leaves nothing running; call `stop()` anyway.
   */
  start(): Promise<void>
  /** Finishes the batches in flight, commits what was inserted, leaves the groups, closes connections. */
  stop(): Promise<void>
  /**
   * Applies the package's ClickHouse migrations the configured store lacks (idempotent; what
   * `npm run migrate` does) and returns the versions applied. Nothing for the memory store.
   */
  migrate(): Promise<readonly string[]>
  /** The rule behind `/health/ready`: every consumer joined, none retrying too long, the store answers. */
  readiness(): Promise<Readiness>
  readonly read: ReadSide
  /** The registry holding this instance's metrics (the host's, when it passed one). */
  readonly registry: Registry
  /** The configuration in force, defaults filled in. */
  readonly config: IngestConfig
  /** Names of the consumers this configuration runs (e.g. `session-ended`). */
  readonly consumers: readonly string[]
}

/**
 * How a process shares its host's periodic passes (not public). Under `start --workers N` one
 * worker runs the reconciliation, the link retention and the lag reads for all N; the others run
 * none and are handed its lag reads, which their batching and parking need.
 */
export interface PeriodicPasses {
  /** True in the process that runs them: the only one, or worker 1 of N. */
  readonly here: boolean
  /** Where it runs them: told of each of its lag reads, to pass them on. */
  readonly lagReads?: LagObserver
}

/** An ingest that takes its lag reads from the host's runner of the periodic passes when it is not that runner. */
export interface IngestProcess extends DevStatsIngest {
  /** A lag read made by the runner: fed to this process's batching and parking as its own would be. */
  readonly lagRead: LagObserver
}

/** Every lag read told to each observer. */
const bothOf = (...observers: readonly LagObserver[]): LagObserver => ({
  observed: (consumer, lags, readFrom) => observers.forEach((o) => o.observed(consumer, lags, readFrom)),
})

/** A stop still running after this long logs, every as long, which consumers it waits for and at which step. */
const STOP_REPORT_MS = 10_000

const where = (config: IngestConfig): string =>
  config.broker === 'memory' ? 'the in-memory broker' : `Kafka at ${config.kafka.brokers.join(',')} (client ${config.broker})`

const storeAt = (config: IngestConfig): string =>
  config.store === 'clickhouse' ? `ClickHouse at ${redactUrl(config.clickhouse.url)}` : `the ${config.store} store`

/**
 * The library's one entry: composes the ingest from a configuration and the host's logger,
 * registry and ports. Throws ConfigError for an invalid setting, ConfluentClientMissing or
 * EmbeddedStoreMissing when the chosen optional client is not installed (each says how to install
 * it). Owns no process: no signal handlers, no exit, no output but through `logger`.
 */
export const createDevStatsIngest = (options: DevStatsIngestOptions = {}): DevStatsIngest => createIngestProcess(options, { here: true })

/** `createDevStatsIngest` for one of several processes on a host: the periodic passes run only where `passes.here`. */
export const createIngestProcess = (options: DevStatsIngestOptions, passes: PeriodicPasses): IngestProcess => {
  const config = resolveConfig(options.config)
  const ports = options.ports ?? {}
  if (!ports.broker) requireBrokerClient(config)
  if (config.store === 'embedded' && !(ports.factStore && ports.dimensionReader && ports.readModel)) requireChdb()
  const registry = options.registry ?? new Registry()
  const logger = options.logger ?? silentLogger
  const metrics = new PromMetrics(registry)
  metrics.seed(consumersOf(config).map(({ spec }) => ({ name: spec.name, tables: spec.tables })))
  const container = createContainer(config, { ...ports, logger, metrics })
  const service = container.get<IngestService>(TOKENS.IngestService)
  const broker = container.get<BrokerAdapters>(TOKENS.BrokerAdapters)
  const store = container.get<StoreAdapters>(TOKENS.StoreAdapters)
  const pressure = container.get<PartsPressure>(TOKENS.PartsPressure)
  const clock = container.get<Clock>(TOKENS.Clock)
  const retention = passes.here && store.linkPartitions
    ? new LinkRetention(store.linkPartitions, config.servingLatenessDays, clock, logger, (n) => metrics.linkPartitionsDropped(n))
    : undefined
  const reconciliation = passes.here && store.reconcile
    ? new ServingReconciliation(store.reconcile.gaps, store.reconcile.serving, clock, logger, config.servingReconcileMinutes * 60_000, config.servingLatenessDays, {
        repaired: (r) => metrics.servingRepaired(r.views, r.sessions),
        breaches: (b) => metrics.servingBreaches(b),
      })
    : undefined
  const lagRead = bothOf(container.get<DimensionProgressTracker>(TOKENS.DimensionProgress), container.get<BacklogBoard>(TOKENS.Backlogs))
  const ops = ingestOps({
    service,
    registry,
    lagReader: passes.here ? broker.lagReader : undefined,
    runsPeriodicPasses: passes.here,
    probe: store.probe,
    clock,
    logger,
    lagIntervalMs: config.lagIntervalMs,
    readyMaxRetrySeconds: config.http.readyMaxRetrySeconds,
    budget: container.get<MemoryBudget>(TOKENS.MemoryBudget),
    lagObserver: passes.lagReads ? bothOf(lagRead, passes.lagReads) : lagRead,
  })

  let started = false
  const start = async (): Promise<void> => {
    let pending: readonly string[]
    let incomplete: string | undefined
    try {
      await store.probe()
      pending = await store.pendingMigrations()
      incomplete = pending.length === 0 ? await store.servingIncomplete() : undefined
    } catch (e) {
      const failure = config.store === 'clickhouse' ? await clickhouseStartupFailure(e, config) : undefined
      throw new StartupError('store-unreachable', `cannot reach ${storeAt(config)}: ${explainClickHouseFailure(e, config, failure)}`, {
        cause: e,
        retriable: failure === 'expects-tls' ? false : retriable(e),
        networkFault: failure !== undefined && NETWORK_FAILURES.has(failure),
      })
    }
    // an older schema would have the serving step fail on every batch: refuse it before consuming
    if (pending.length > 0) {
      throw new StartupError('schema-outdated', `${storeAt(config)} lacks the migrations ${pending.join(', ')}: run dev-stats-ingest migrate (then dev-stats-ingest backfill for 0008 on a store with data)`, { cause: undefined, retriable: false })
    }
    // answers from half-empty serving tables would be wrong without a sign: refuse until the backfill finished
    if (incomplete !== undefined) {
      throw new StartupError('serving-incomplete', `${storeAt(config)}: ${incomplete}; run dev-stats-ingest backfill (safe beside a running older instance), then start`, { cause: undefined, retriable: false })
    }
    try {
      await broker.check()
    } catch (e) {
      // the broker's probe calls only the network's failures retriable (ConnectionError)
      throw new StartupError('broker-unreachable', `cannot connect to ${where(config)}: ${explainKafkaFailure(e, config)}`, { cause: e, retriable: retriable(e), networkFault: retriable(e) })
    }
    started = true
    ops.start()
    if (store.pressure) pressure.start()
    retention?.start()
    reconciliation?.start()
    try {
      await service.start()
    } catch (e) {
      if (e instanceof MissingTopicsError) throw new StartupError('topics-missing', `on ${where(config)}: ${e.message}`, { cause: e, retriable: false })
      throw new StartupError('consume-failed', `cannot start consuming from ${where(config)}: ${explainKafkaFailure(e, config)}`, { cause: e, retriable: retriable(e) })
    }
    logger.info({ broker: config.broker, store: config.store, consumers: service.engines.map((e) => e.name) }, `consuming from ${where(config)}`)
  }

  let stopping: Promise<void> | undefined
  const stop = (): Promise<void> =>
    (stopping ??= (async () => {
      const slow = setInterval(() => {
        const waiting = service.engines.filter((e) => e.stopStep !== 'stopped').map((e) => `${e.name}: ${e.stopStep}`)
        logger.warn({ waiting }, 'still stopping')
      }, STOP_REPORT_MS)
      // side by side: on a silent broker each has its own bounded wait (docs/operations.md)
      await Promise.all([service.stop().finally(() => clearInterval(slow)), ops.stop()])
      pressure.stop()
      retention?.stop()
      reconciliation?.stop()
      await broker.close()
      await store.close()
    })())

  return {
    start,
    stop,
    migrate: () => store.migrate(),
    readiness: () => ops.readiness(),
    read: readSideOf(container),
    registry,
    config,
    consumers: service.engines.map((e) => e.name),
    lagRead,
  }
}
