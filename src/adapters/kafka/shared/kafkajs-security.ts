import type { KafkaConfig } from 'kafkajs'
import { PLAINTEXT, usesTls, type KafkaSecurity } from './kafka-security.js'

/** The security settings as kafkajs options: `ssl` (a tls.connect options object) and `sasl`. */
export const kafkajsSecurity = (security: KafkaSecurity = PLAINTEXT): Pick<KafkaConfig, 'ssl' | 'sasl'> => {
  const { sasl, tls = {} } = security
  return {
    ...(usesTls(security)
      ? {
          ssl: {
            rejectUnauthorized: true,
            ...(tls.ca ? { ca: [tls.ca] } : {}),
            ...(tls.cert && tls.key ? { cert: tls.cert, key: tls.key } : {}),
            ...(tls.keyPassword ? { passphrase: tls.keyPassword } : {}),
          },
        }
      : {}),
    ...(sasl ? { sasl: { mechanism: sasl.mechanism, username: sasl.username, password: sasl.password } as KafkaConfig['sasl'] } : {}),
  }
}
