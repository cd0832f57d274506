import type { TopicCatalog } from '../../../application/ports/topic-catalog.port.js'
import { confluentClient } from './confluent-client.js'
import { confluentSecurity } from './confluent-security.js'
import { brokerError } from '../shared/kafka-errors.js'
import type { KafkaOptions } from '../shared/kafka-options.js'

/** Topic look-ups through librdkafka's admin client (the same client the consumers will use). */
export class ConfluentTopicCatalog implements TopicCatalog {
  constructor(private readonly options: Pick<KafkaOptions, 'brokers' | 'clientId' | 'security'>) {}

  async missing(topics: readonly string[]): Promise<readonly string[]> {
    const { Kafka, logLevel } = confluentClient().KafkaJS
    const kafka = new Kafka({
      kafkaJS: { clientId: this.options.clientId, brokers: [...this.options.brokers], logLevel: logLevel.NOTHING, connectionTimeout: 3000 },
      ...confluentSecurity(this.options.security),
    })
    const admin = kafka.admin()
    try {
      await admin.connect()
      const existing = new Set(await admin.listTopics({ timeout: 10_000 }))
      return topics.filter((t) => !existing.has(t))
    } catch (e) {
      throw brokerError('list topics', e)
    } finally {
      await admin.disconnect().catch(() => undefined)
    }
  }
}
