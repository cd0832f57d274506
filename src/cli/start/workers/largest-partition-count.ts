import { KafkaJsTopicCatalog } from '../../../adapters/kafka/kafkajs/kafkajs-topic-catalog.js'
import { topicsToProvision } from '../../../application/consumers/consumer-topics.js'
import type { Logger } from '../../../application/ports/logger.port.js'
import type { IngestConfig } from '../../../composition/config.js'
import { consumersOf } from '../../../composition/consumers.js'

/**
 * The most partitions among the topics the enabled consumers read (source and retry), as the
 * broker has them; the partitions `dev-stats-ingest topics` creates when the broker cannot say.
 * Through kafkajs' admin whatever the client, as `topics` does: one metadata request.
 */
export const largestPartitionCount = async (config: IngestConfig, logger: Logger): Promise<number> => {
  const consumers = consumersOf(config)
  const read = consumers.flatMap((c) => [c.topics.source, c.topics.retry])
  const declared = Math.max(...topicsToProvision(consumers).filter((t) => read.includes(t.name)).map((t) => t.partitions))
  try {
    const counts = await new KafkaJsTopicCatalog(config.kafka).partitionCounts(read)
    return counts.size > 0 ? Math.max(...counts.values()) : declared
  } catch (e) {
    logger.warn({ err: String(e), partitions: declared }, 'cannot read the partitions of the topics: auto counts those dev-stats-ingest topics creates')
    return declared
  }
}
