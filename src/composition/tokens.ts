/** Every DI token of the container, in one place. */
export const TOKENS = {
  Config: Symbol.for('dev-stats.Config'),
  Clock: Symbol.for('dev-stats.Clock'),
  Logger: Symbol.for('dev-stats.Logger'),
  Metrics: Symbol.for('dev-stats.Metrics'),
  Tracer: Symbol.for('dev-stats.Tracer'),
  Broker: Symbol.for('dev-stats.Broker'),
  TopicCatalog: Symbol.for('dev-stats.TopicCatalog'),
  FactStore: Symbol.for('dev-stats.FactStore'),
  StoreProbe: Symbol.for('dev-stats.StoreProbe'),
  DimensionReader: Symbol.for('dev-stats.DimensionReader'),
  ReadModel: Symbol.for('dev-stats.ReadModel'),
  InMemoryTables: Symbol.for('dev-stats.InMemoryTables'),
  Handlers: Symbol.for('dev-stats.Handlers'),
  IngestService: Symbol.for('dev-stats.IngestService'),
  GetSessionMetrics: Symbol.for('dev-stats.GetSessionMetrics'),
  GetConversionFunnel: Symbol.for('dev-stats.GetConversionFunnel'),
} as const
