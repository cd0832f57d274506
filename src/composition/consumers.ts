import { CONSUMERS } from '../application/consumers/consumer-registry.js'
import { isEnabled, resolveConsumer, type ResolvedConsumer } from '../application/consumers/consumer-topics.js'
import type { IngestConfig } from './config.js'

/** The registry's consumers this configuration runs, with its DEV_STATS_TOPIC_/GROUP_ overrides applied. */
export const consumersOf = (config: IngestConfig): readonly ResolvedConsumer[] =>
  CONSUMERS.filter((spec) => isEnabled(spec, config)).map((spec) => resolveConsumer(spec, config.topics))

/** Every registered consumer, enabled or not: what `npm run topics` provisions. */
export const allConsumersOf = (config: IngestConfig): readonly ResolvedConsumer[] =>
  CONSUMERS.map((spec) => resolveConsumer(spec, config.topics))
