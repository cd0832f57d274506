import type { Kafka } from 'kafkajs'
import { ConnectionError, transportFailureOf } from '../../connection-failure.js'
import type { KafkaOptions } from '../shared/kafka-options.js'
import { PLAINTEXT } from '../shared/kafka-security.js'
import { probeTransport } from '../shared/kafka-transport-probe.js'
import { withDeadline } from './with-deadline.js'

const failureOf = (e: unknown): ConnectionError => {
  const err = e as { name?: string; message?: string; cause?: unknown }
  const message = String(err?.message ?? e)
  if (err?.name === 'KafkaJSSASLAuthenticationError' || /SASL .*authentication failed/i.test(message)) {
    return new ConnectionError('auth', message, { cause: e })
  }
  if (/SASL mechanism/i.test(message)) return new ConnectionError('sasl-mechanism', message, { cause: e })
  return new ConnectionError(transportFailureOf(err?.cause) ?? transportFailureOf(e) ?? 'unreachable', message, { cause: e })
}

/** Start-up check: the transport (bounded, see probeTransport), then a kafkajs admin login. */
export const checkKafkaJsConnection = async (kafka: Kafka, options: KafkaOptions, timeoutMs = 15_000): Promise<void> => {
  await probeTransport(options.brokers, options.security ?? PLAINTEXT)
  const admin = kafka.admin()
  try {
    await withDeadline(admin.connect(), timeoutMs, 'kafkajs admin connect')
  } catch (e) {
    throw e instanceof ConnectionError ? e : failureOf(e)
  } finally {
    await admin.disconnect().catch(() => undefined)
  }
}
