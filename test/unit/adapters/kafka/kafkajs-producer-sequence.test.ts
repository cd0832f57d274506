import { createRequire } from 'node:module'
import { describe, expect, it } from 'vitest'
import { KAFKAJS_PRODUCER_OPTIONS } from '../../../../src/adapters/kafka/kafkajs/kafkajs-broker.js'

// kafkajs 2.2.4's own send path (producer/sendMessages.js, eosManager) against a broker that keeps
// Kafka's idempotence rule for one partition: a batch whose first and last sequence equal the last
// written batch's is a duplicate, acknowledged and not written. The first produce is written, then
// its connection closes before the answer (a broker restart); a second send waits for the lock.
const require = createRequire(import.meta.url)
const createSendMessages = require('kafkajs/src/producer/sendMessages.js')
const createEosManager = require('kafkajs/src/producer/eosManager/index.js')
const createRetry = require('kafkajs/src/retry/index.js')
const { KafkaJSConnectionClosedError } = require('kafkajs/src/errors.js')

interface Entry { partition: number; firstSequence?: number; messages: { value: string }[] }

const TOPIC = 'parked'
const silent = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined }
const logger = { ...silent, namespace: () => silent }

const fakeBroker = (idempotent: boolean) => {
  const log: string[] = []
  let last: { first: number; last: number } | undefined
  let produces = 0
  const broker = {
    nodeId: 1,
    initProducerId: async () => ({ producerId: 7, producerEpoch: 0 }),
    produce: async ({ topicData }: { topicData: { topic: string; partitions: Entry[] }[] }) => {
      const entry = topicData[0]?.partitions[0] as Entry
      const first = idempotent ? (entry.firstSequence as number) : -1
      const lastSeq = first + entry.messages.length - 1
      const duplicate = idempotent && last !== undefined && last.first === first && last.last === lastSeq
      if (!duplicate) {
        log.push(...entry.messages.map((m) => m.value))
        if (idempotent) last = { first, last: lastSeq }
      }
      if (++produces === 1) {
        await new Promise((r) => setTimeout(r, 20)) // the second send queues on the lock meanwhile
        throw new KafkaJSConnectionClosedError('Connection closed', { host: 'b', port: 1 })
      }
      return { topics: [{ topicName: TOPIC, partitions: [{ partition: 0, errorCode: 0, baseOffset: String(log.length - 1) }] }] }
    },
  }
  const cluster = {
    retry: { retries: 5, initialRetryTime: 1, maxRetryTime: 5 },
    refreshMetadataIfNecessary: async () => undefined,
    refreshMetadata: async () => undefined,
    addMultipleTargetTopics: async () => undefined,
    findTopicPartitionMetadata: () => [{ partitionId: 0, leader: 1 }],
    findLeaderForPartitions: () => ({ 1: [0] }),
    findBroker: async () => broker,
    findControllerBroker: async () => broker,
    removeBroker: () => undefined,
    isConnected: () => true,
  }
  return { log, cluster }
}

const sendTwoConcurrently = async (idempotent: boolean): Promise<string[]> => {
  const { log, cluster } = fakeBroker(idempotent)
  const eosManager = createEosManager({ logger, cluster })
  if (idempotent) await eosManager.initProducerId() // what kafkajs' producer.connect() does when idempotent
  const send = createSendMessages({ logger, cluster, partitioner: () => 0, eosManager, retrier: createRetry(cluster.retry) })
  const one = (value: string) => send({ acks: -1, topicMessages: [{ topic: TOPIC, messages: [{ value }] }] })
  await Promise.all([one('A'), one('B')])
  return log
}

describe('kafkajs producer: a written batch whose answer was lost', () => {
  it('idempotent, kafkajs acknowledges the next batch of the same size as its duplicate and never writes it', async () => {
    const log = await sendTwoConcurrently(true)
    expect(log).not.toContain('B') // the hazard the adapter's settings avoid
  })

  it('with the adapter\'s producer settings both records are written (one perhaps twice)', async () => {
    const log = await sendTwoConcurrently(KAFKAJS_PRODUCER_OPTIONS.idempotent)
    expect(new Set(log)).toEqual(new Set(['A', 'B']))
  })
})
