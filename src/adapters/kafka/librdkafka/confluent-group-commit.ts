import type { PartitionOffset } from '../../../application/ports/consumer-group-admin.port.js'
import { confluentClient } from './confluent-client.js'
import { confluentSecurity } from './confluent-security.js'
import type { KafkaOptions } from '../shared/kafka-options.js'

type Callback = (err: unknown) => void
interface RawCommitter {
  connect(opts: object, cb: Callback): void
  commitCb(offsets: { topic: string; partition: number; offset: number }[], cb: Callback): void
  disconnect(cb: Callback): void
}

const promised = (call: (cb: Callback) => void): Promise<void> =>
  new Promise((resolve, reject) => call((err) => (err ? reject(err) : resolve())))

/**
 * Commits offsets for a group from outside it: the client's admin API (1.10) has no
 * AlterConsumerGroupOffsets, so a librdkafka consumer that never subscribes commits them, as a
 * group's simple consumer would. The broker refuses it while the group has members, and librdkafka
 * does not report that refusal here: the caller reads the offsets back.
 */
export const confluentGroupCommit = (options: Pick<KafkaOptions, 'brokers' | 'clientId' | 'security'>) =>
  async (groupId: string, topic: string, offsets: readonly PartitionOffset[]): Promise<void> => {
    const Consumer = confluentClient().KafkaConsumer as unknown as new (conf: object, topicConf: object) => RawCommitter
    const raw = new Consumer({
      'bootstrap.servers': options.brokers.join(','),
      'client.id': options.clientId,
      'group.id': groupId,
      'enable.auto.commit': false,
      ...confluentSecurity(options.security),
    }, {})
    await promised((cb) => raw.connect({ allTopics: false, topic, timeout: 10_000 }, cb))
    try {
      await promised((cb) => raw.commitCb(offsets.map((o) => ({ topic, partition: o.partition, offset: Number(o.offset) })), cb))
    } finally {
      await promised((cb) => raw.disconnect(cb)).catch(() => undefined)
    }
  }
