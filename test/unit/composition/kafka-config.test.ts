import { describe, expect, it } from 'vitest'
import { ConfluentBroker } from '../../../src/adapters/kafka/librdkafka/confluent-broker.js'
import { KafkaJsBroker } from '../../../src/adapters/kafka/kafkajs/kafkajs-broker.js'
import { InMemoryBroker } from '../../../src/adapters/memory/in-memory-broker.js'
import { ConfigError, loadConfig } from '../../../src/composition/config.js'
import { createContainer } from '../../../src/composition/container.js'
import { TOKENS } from '../../../src/composition/tokens.js'

describe('Kafka configuration', () => {
  it('defaults to the in-memory broker and the local Kafka address', () => {
    const c = loadConfig({})
    expect(c.broker).toBe('memory')
    expect(c.kafka).toEqual({ brokers: ['127.0.0.1:19092'], clientId: 'dev-stats-ingest', security: { protocol: 'plaintext' } })
  })

  it('reads a comma list of brokers and a client id', () => {
    const c = loadConfig({ DEV_STATS_BROKER: 'confluent', DEV_STATS_KAFKA_BROKERS: 'k1:9092, k2:9093', DEV_STATS_KAFKA_CLIENT_ID: 'svc-1' })
    expect(c).toMatchObject({ broker: 'confluent', kafka: { brokers: ['k1:9092', 'k2:9093'], clientId: 'svc-1' } })
  })

  it.each([
    ['DEV_STATS_BROKER', 'rabbit'],
    ['DEV_STATS_KAFKA_BROKERS', 'localhost'],
    ['DEV_STATS_KAFKA_BROKERS', 'k1:99999'],
    ['DEV_STATS_KAFKA_BROKERS', ' , '],
    ['DEV_STATS_KAFKA_CLIENT_ID', 'has space'],
  ])('%s=%s is a ConfigError naming the setting', (setting, value) => {
    const attempt = () => loadConfig({ [setting]: value })
    expect(attempt).toThrow(ConfigError)
    expect(attempt).toThrow(setting)
  })

  it.each([
    ['memory', InMemoryBroker],
    ['kafkajs', KafkaJsBroker],
    ['confluent', ConfluentBroker],
  ] as const)('DEV_STATS_BROKER=%s binds its adapter without connecting', (broker, type) => {
    const container = createContainer(loadConfig({ DEV_STATS_BROKER: broker, DEV_STATS_LOG_LEVEL: 'silent' }))
    expect(container.get(TOKENS.Broker)).toBeInstanceOf(type)
  })
})
