import { PLAINTEXT, usesTls, type KafkaSecurity } from '../shared/kafka-security.js'

/**
 * The security settings as librdkafka properties, given beside the client's `kafkaJS` block
 * (which only takes `ssl: true`). Certificates go in as PEM text, so no file is read twice.
 */
export const confluentSecurity = (security: KafkaSecurity = PLAINTEXT): Record<string, string> => {
  const { sasl, tls = {} } = security
  return {
    'security.protocol': security.protocol,
    ...(sasl ? { 'sasl.mechanisms': sasl.mechanism.toUpperCase(), 'sasl.username': sasl.username, 'sasl.password': sasl.password } : {}),
    ...(usesTls(security)
      ? {
          'ssl.endpoint.identification.algorithm': 'https',
          ...(tls.ca ? { 'ssl.ca.pem': tls.ca } : {}),
          ...(tls.cert && tls.key ? { 'ssl.certificate.pem': tls.cert, 'ssl.key.pem': tls.key } : {}),
          ...(tls.keyPassword ? { 'ssl.key.password': tls.keyPassword } : {}),
        }
      : {}),
  }
}
