import 'reflect-metadata'
import { Container, type ResolutionContext } from 'inversify'
import { ConsumerEngine } from '../application/engine/consumer-engine.js'
import { BacklogBoard } from '../application/engine/backlog.js'
import { PartsPressure } from '../application/engine/parts-pressure.js'
import { MemoryBudget } from '../application/engine/memory-budget.js'
import { StoreRecovery } from '../application/engine/store-recovery.js'
import { DimensionProgressTracker } from '../application/engine/dimension-progress.js'
import { defaultTopics } from '../application/engine/engine-config.js'
import type { EventHandler } from '../application/handlers/event-handler.js'
import { IngestService } from '../application/ingest-service.js'
import type { Clock } from '../application/ports/clock.port.js'
import type { ReadModel } from '../application/ports/read-model.port.js'
import { getConversionFunnel } from '../application/read/get-conversion-funnel.js'
import { storeFreshness } from '../application/read/stage-freshness.js'
import { getDeveloperSessionMetrics } from '../application/read/get-developer-session-metrics.js'
import { getFunnelScope } from '../application/read/get-funnel-scope.js'
import { CachedReadModel } from '../adapters/cache/cached-read-model.js'
import { GatheredReads } from '../application/read/gathered-reads.js'
import { BoundedReadModel } from '../application/read/bounded-read-model.js'
import { systemClock } from '../adapters/clock/system-clock.js'
import { InMemoryTables } from '../adapters/memory/in-memory-tables.js'
import { OtelTracer } from '../adapters/observability/otel-tracer.js'
import { PinoLogger } from '../adapters/observability/pino-logger.js'
import { DayRecordsReadModel } from '../application/read/day-records-read-model.js'
import type { IngestMetrics } from '../application/ports/metrics.port.js'
import type { Logger } from '../application/ports/logger.port.js'
import { PromMetrics } from '../adapters/observability/prom-metrics.js'
import { InMemoryBroker } from '../adapters/memory/in-memory-broker.js'
import { brokerAdaptersFor, provisioned, type BrokerAdapters } from './broker.factory.js'
import { consumersOf } from './consumers.js'
import { withDimensionCache } from './dimension-cache.js'
import { storeFor, type StoreAdapters } from './store.factory.js'
import { loadConfig, type IngestConfig } from './config.js'
import { withOverrides, type PortOverrides } from './port-overrides.js'
import { TOKENS } from './tokens.js'

const handlersOf = (config: IngestConfig): EventHandler[] =>
  consumersOf(config).map(({ spec, topics, groupId }) => spec.handler(topics.source, groupId, { viewSources: config.viewSources }))

/**
 * The store's read model, whole days of session metrics from its day records where it keeps them,
 * bounded in concurrent reads, its name reads and unfiltered funnel reads gathered, behind the
 * read cache where the store can tell when its data changed.
 */
const readModelOf = (store: StoreAdapters, { readCache, readQueries }: IngestConfig, clock: Clock, notStored: (e: unknown) => void): ReadModel => {
  const records = store.dayRecords ? new DayRecordsReadModel(store.readModel, store.dayRecords, notStored) : store.readModel
  // a read still queued when its time limit has passed is dropped: the read API has answered 503 (or is about to)
  const bounded = new BoundedReadModel(records, { ...readQueries, maxWaitMs: readQueries.timeoutSeconds * 1000 })
  // as many callers may wait for gathered reads as the bounds admit, running and queued
  const gathered = new GatheredReads(bounded, readQueries.maxConcurrent + readQueries.maxQueued)
  return store.dataVersions && readCache.maxEntries > 0
    ? new CachedReadModel(gathered, store.dataVersions, clock, { maxEntries: readCache.maxEntries, maxStaleMs: readCache.maxStaleSeconds * 1000 })
    : gathered
}

/** A store without parts (memory) is never under parts pressure. */
const NO_PARTS = { activePartsPeak: async () => 0 }

const engineFor = (ctx: ResolutionContext, handler: EventHandler): ConsumerEngine => {
  const config = ctx.get<IngestConfig>(TOKENS.Config)
  const { broker } = ctx.get<BrokerAdapters>(TOKENS.BrokerAdapters)
  return new ConsumerEngine({
    handler,
    topics: defaultTopics(handler.topic, handler.groupId),
    consumer: broker.consumer(handler.groupId),
    producer: broker.producer(),
    store: ctx.get(TOKENS.FactStore),
    dimensions: ctx.get(TOKENS.DimensionReader),
    dimensionProgress: ctx.get(TOKENS.DimensionProgress),
    backlog: ctx.get<BacklogBoard>(TOKENS.Backlogs).of(handler.name, handler.topic),
    pressure: ctx.get<PartsPressure>(TOKENS.PartsPressure),
    budget: ctx.get<MemoryBudget>(TOKENS.MemoryBudget),
    recovery: ctx.get<StoreRecovery>(TOKENS.StoreRecovery),
    clock: ctx.get(TOKENS.Clock),
    logger: ctx.get(TOKENS.Logger),
    metrics: ctx.get(TOKENS.Metrics),
    tracer: ctx.get(TOKENS.Tracer),
    // facts naming a new property object find it sooner: fewer parked, none parked for a whole interval
    config: { ...config.engine, ...(handler.feedsDimensionLookup ? { flushIntervalMs: Math.min(config.engine.flushIntervalMs, config.dimensionFlushIntervalMs) } : {}), servingLatenessDays: config.servingLatenessDays, ...(config.catchUp.maxRows > config.engine.maxBatchRows ? { catchUp: config.catchUp } : {}) },
  })
}

/**
 * The composition root: the only place that knows inversify. Configuration picks the adapters;
 * `overrides` replace any port (a host's own adapters); tests may also rebind a token before
 * resolving IngestService. Hosts use `createDevStatsIngest`, which builds one of these.
 */
export const createContainer = (config: IngestConfig = loadConfig(), overrides: PortOverrides = {}): Container => {
  const c = new Container({ defaultScope: 'Singleton' })
  c.bind(TOKENS.Config).toConstantValue(config)
  c.bind(TOKENS.Clock).toConstantValue(overrides.clock ?? systemClock)
  c.bind(TOKENS.Logger).toDynamicValue(() => overrides.logger ?? PinoLogger.withLevel(config.logLevel))
  c.bind(TOKENS.Metrics).toDynamicValue(() => overrides.metrics ?? new PromMetrics())
  c.bind(TOKENS.Tracer).toDynamicValue(() => overrides.tracer ?? new OtelTracer())
  c.bind(TOKENS.BrokerAdapters).toDynamicValue((ctx) => {
    const { broker } = overrides
    if (broker instanceof InMemoryBroker) provisioned(broker, config)
    return broker ? withOverrides.broker({ ...overrides, broker }) : brokerAdaptersFor(config, ctx.get(TOKENS.Logger))
  })
  c.bind(TOKENS.Broker).toDynamicValue((ctx) => ctx.get<BrokerAdapters>(TOKENS.BrokerAdapters).broker)
  c.bind(TOKENS.TopicCatalog).toDynamicValue((ctx) => ctx.get<BrokerAdapters>(TOKENS.BrokerAdapters).catalog)
  c.bind(TOKENS.InMemoryTables).toDynamicValue(() => new InMemoryTables())
  let store: StoreAdapters | undefined
  const storeOf = (ctx: ResolutionContext): StoreAdapters =>
    (store ??= withDimensionCache(withOverrides.store(storeFor(config, () => ctx.get(TOKENS.InMemoryTables)), overrides), config, ctx.get(TOKENS.Clock)))
  c.bind(TOKENS.StoreAdapters).toDynamicValue(storeOf)
  c.bind(TOKENS.FactStore).toDynamicValue((ctx) => storeOf(ctx).factStore)
  c.bind(TOKENS.StoreProbe).toDynamicValue((ctx) => storeOf(ctx).probe)
  c.bind(TOKENS.DimensionReader).toDynamicValue((ctx) => storeOf(ctx).dimensionReader)
  c.bind(TOKENS.ReadModel).toDynamicValue((ctx) => {
    let loggedAt = -Infinity
    return readModelOf(storeOf(ctx), config, ctx.get(TOKENS.Clock), (e) => {
      ctx.get<IngestMetrics>(TOKENS.Metrics).dayRecordsNotStored?.()
      // counted every time, logged once a minute: a read-only user would fail every read's store
      const now = ctx.get<Clock>(TOKENS.Clock).now()
      if (now - loggedAt < 60_000) return
      loggedAt = now
      ctx.get<Logger>(TOKENS.Logger).warn({ err: e instanceof Error ? e.message : String(e) }, 'day records computed by a read not stored; a later read computes them again')
    })
  })
  c.bind(TOKENS.Handlers).toConstantValue(handlersOf(config))
  // Fed by the lag monitor (ingest-ops) when the broker has a lag reader: parked records wait for
  // the dimension consumers run here; without one they end after their attempts alone.
  c.bind(TOKENS.Backlogs).toDynamicValue(() => new BacklogBoard())
  c.bind(TOKENS.MemoryBudget).toDynamicValue(() => new MemoryBudget(config.memoryBudgetMb * 1024 * 1024))
  c.bind(TOKENS.StoreRecovery).toDynamicValue(() => new StoreRecovery())
  c.bind(TOKENS.PartsPressure).toDynamicValue((ctx) => {
    const recovery = ctx.get<StoreRecovery>(TOKENS.StoreRecovery)
    return new PartsPressure(storeOf(ctx).pressure ?? NO_PARTS, ctx.get(TOKENS.Logger), undefined, undefined, () => recovery.answered())
  })
  c.bind(TOKENS.DimensionProgress).toDynamicValue(
    (ctx) =>
      new DimensionProgressTracker(ctx.get<EventHandler[]>(TOKENS.Handlers).filter((h) => h.feedsDimensionLookup).map((h) => h.name), {
        fed: ctx.get<BrokerAdapters>(TOKENS.BrokerAdapters).lagReader !== undefined,
      }),
  )
  c.bind(TOKENS.IngestService).toDynamicValue(
    (ctx) => new IngestService(ctx.get<EventHandler[]>(TOKENS.Handlers).map((h) => engineFor(ctx, h)), ctx.get(TOKENS.TopicCatalog)),
  )
  c.bind(TOKENS.GetFunnelScope).toDynamicValue((ctx) => getFunnelScope(ctx.get<ReadModel>(TOKENS.ReadModel)))
  c.bind(TOKENS.GetSessionMetrics).toDynamicValue((ctx) => getDeveloperSessionMetrics(ctx.get<ReadModel>(TOKENS.ReadModel)))
  c.bind(TOKENS.GetConversionFunnel).toDynamicValue((ctx) =>
    // Freshness from the store: a host that runs no consumer marks stages as the ingesting ones do.
    getConversionFunnel(ctx.get<ReadModel>(TOKENS.ReadModel), storeFreshness(storeOf(ctx).stageProgress, (stage) => ctx.get<EventHandler[]>(TOKENS.Handlers).some((h) => h.funnelStage === stage))),
  )
  return c
}
