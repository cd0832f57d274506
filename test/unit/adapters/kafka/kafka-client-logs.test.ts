import kafkajs from 'kafkajs'
import { describe, expect, it } from 'vitest'
import { confluentLogger, kafkaJsLogCreator } from '../../../../src/adapters/kafka/shared/kafka-client-logs.js'
import { RecordingLogger } from '../../../support/recording-logger.js'

const { logLevel } = kafkajs

describe('Kafka clients log through our logger', () => {
  it('kafkajs: each line at its own level, structured, routine rebalance errors dropped', () => {
    const logger = new RecordingLogger()
    const log = kafkaJsLogCreator(logger)()
    const entry = (level: number, message: string, extra: Record<string, unknown> = {}) =>
      log({ namespace: 'Connection', level, label: 'x', log: { timestamp: 'now', message, ...extra } })
    entry(logLevel.ERROR, 'Response Metadata', { broker: '127.0.0.1:19092', error: 'This server does not host this topic-partition' })
    entry(logLevel.WARN, 'slow')
    entry(logLevel.ERROR, 'Restarting the consumer', { error: 'The group is rebalancing, so a rejoin is needed' })
    expect(logger.lines).toEqual([
      { level: 'error', message: 'Response Metadata', fields: { client: 'kafkajs', namespace: 'Connection', error: 'This server does not host this topic-partition', broker: '127.0.0.1:19092' } },
      { level: 'warn', message: 'slow', fields: { client: 'kafkajs', namespace: 'Connection', error: '', broker: '' } },
    ])
  })

  it('librdkafka: its event.log lines (fac, name) at their level, filtered by the level the client sets', () => {
    const logger = new RecordingLogger()
    const l = confluentLogger(logger, 1)
    l.error('Broker: Unknown topic or partition', { fac: 'PARTCNT', timestamp: 1, name: 'rdkafka#producer-1' })
    l.warn('not shown at ERROR')
    l.setLogLevel(2)
    l.namespace('x').warn('shown at WARN', { fac: 'FAIL' })
    l.info('not shown at WARN')
    expect(logger.lines).toEqual([
      { level: 'error', message: 'Broker: Unknown topic or partition', fields: { client: 'librdkafka', fac: 'PARTCNT', instance: 'rdkafka#producer-1' } },
      { level: 'warn', message: 'shown at WARN', fields: { client: 'librdkafka', fac: 'FAIL' } },
    ])
  })
})
