import kafkajs from 'kafkajs'
import type { TopicToProvision } from '../../../application/consumers/consumer-topics.js'
import type { TopicCatalog } from '../../../application/ports/topic-catalog.port.js'
import { withAdmin } from '../shared/kafka-admin-offsets.js'
import type { KafkaOptions } from '../shared/kafka-options.js'
import { kafkajsSecurity } from '../shared/kafkajs-security.js'

const { Kafka, logLevel } = kafkajs
type Admin = ReturnType<InstanceType<typeof Kafka>['admin']>

export interface ProvisionReport {
  readonly created: readonly string[]
  readonly existing: readonly string[]
}

/** Topic look-ups and provisioning through the kafkajs admin client: one short connection per call. */
export class KafkaJsTopicCatalog implements TopicCatalog {
  constructor(private readonly options: Pick<KafkaOptions, 'brokers' | 'clientId' | 'security'>) {}

  async missing(topics: readonly string[]): Promise<readonly string[]> {
    const existing = await this.withAdmin('list topics', async (admin) => new Set(await admin.listTopics()))
    return topics.filter((t) => !existing.has(t))
  }

  /** Creates what is missing (replication factor 1 per broker, capped at 3); never deletes or alters. */
  async provision(topics: readonly TopicToProvision[]): Promise<ProvisionReport> {
    return this.withAdmin('create topics', async (admin) => {
      const present = new Set(await admin.listTopics())
      const toCreate = topics.filter((t) => !present.has(t.name))
      if (toCreate.length > 0) {
        const { brokers } = await admin.describeCluster()
        const replicationFactor = Math.min(3, brokers.length)
        // kafkajs's own wait for leaders gives up when a busy broker first answers
        // UNKNOWN_TOPIC_OR_PARTITION for a topic it just created: asked again until hosted
        await admin.createTopics({
          topics: toCreate.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor })),
          waitForLeaders: false,
          timeout: 30_000,
        })
        await untilHostedWithLeaders(admin, toCreate.map((t) => t.name))
      }
      // The first group-coordinator look-up makes the broker create __consumer_offsets: done here,
      // it spares the first consumer a COORDINATOR_NOT_AVAILABLE retry round.
      await admin.describeGroups(['dev-stats-warmup']).catch(() => undefined)
      return { created: toCreate.map((t) => t.name), existing: topics.filter((t) => present.has(t.name)).map((t) => t.name) }
    })
  }

  /** Partitions of each of `topics` the broker hosts, by name (one it does not host is absent, never created). */
  async partitionCounts(topics: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.withAdmin('describe topics', async (admin) => {
      const present = new Set(await admin.listTopics())
      const { topics: described } = await admin.fetchTopicMetadata({ topics: topics.filter((t) => present.has(t)) })
      return new Map(described.map((t) => [t.name, t.partitions.length]))
    })
  }

  private withAdmin<T>(what: string, f: (admin: Admin) => Promise<T>): Promise<T> {
    const kafka = new Kafka({
      clientId: this.options.clientId,
      brokers: [...this.options.brokers],
      ...kafkajsSecurity(this.options.security),
      logLevel: logLevel.NOTHING,
      connectionTimeout: 3000,
      retry: { retries: 3, initialRetryTime: 200, maxRetryTime: 2000 },
    })
    return withAdmin(kafka.admin(), what, f)
  }
}

/** Waits until the broker hosts every one of `names` with a leader for each partition (30 s at most). */
export const untilHostedWithLeaders = async (admin: Admin, names: readonly string[], timeoutMs = 30_000): Promise<void> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      const { topics } = await admin.fetchTopicMetadata({ topics: [...names] })
      const hosted = (name: string) => {
        const partitions = topics.find((t) => t.name === name)?.partitions ?? []
        return partitions.length > 0 && partitions.every((p) => p.leader >= 0)
      }
      if (names.every(hosted)) return
    } catch (e) {
      if (!(e as { retriable?: boolean }).retriable) throw e
    }
    if (Date.now() > deadline) throw new Error(`topics not hosted with leaders after ${timeoutMs} ms: ${names.join(', ')}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}
