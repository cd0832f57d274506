import { ConnectionError, type ConnectionFailure } from '../../connection-failure.js'
import { confluentClient } from './confluent-client.js'
import { confluentSecurity } from './confluent-security.js'
import type { KafkaOptions } from '../shared/kafka-options.js'
import { PLAINTEXT } from '../shared/kafka-security.js'
import { probeTransport } from '../shared/kafka-transport-probe.js'

// librdkafka retries a failed login until its timeout and only logs why: its log lines are the evidence.
const LOGGED_FAILURES: readonly [RegExp, ConnectionFailure][] = [
  [/mechanism handshake failed|Unsupported SASL mechanism/i, 'sasl-mechanism'],
  [/SASL authentication error|Authentication failed/i, 'auth'],
  [/certificate verify failed|unable to get local issuer/i, 'unknown-ca'],
  [/SSL handshake failed|wrong version number/i, 'not-tls'],
]

/**
 * Start-up check: the transport (bounded, see probeTransport), then a librdkafka login with its
 * low-level producer, whose connect takes a timeout (the process cannot exit while a connect is
 * pending, so it must be short) and whose log lines arrive at once.
 */
export const checkConfluentConnection = async (options: KafkaOptions, timeoutMs = 8000): Promise<void> => {
  await probeTransport(options.brokers, options.security ?? PLAINTEXT)
  const producer = new (confluentClient().Producer)({
    'bootstrap.servers': options.brokers.join(','),
    'client.id': options.clientId,
    event_cb: true,
    ...confluentSecurity(options.security),
  })
  await new Promise<void>((resolve, reject) => {
    const onLine = (message: unknown) => {
      const text = String(message)
      const hit = LOGGED_FAILURES.find(([pattern]) => pattern.test(text))
      if (hit) reject(new ConnectionError(hit[1], text.replace(/^\[thrd:[^\]]*\]:\s*/, '')))
    }
    producer.on('event.log', (line: { message?: unknown }) => onLine(line.message))
    producer.on('event.error', (e: { message: string }) => onLine(e.message))
    producer.connect({ timeout: timeoutMs }, (err) => {
      if (err) reject(new ConnectionError('timeout', `librdkafka connect: ${err.message}`, { cause: err }))
      else resolve()
      producer.disconnect(() => undefined)
    })
  })
}
