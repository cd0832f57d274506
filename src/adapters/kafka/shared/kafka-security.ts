/** The transport of the Kafka listener the clients connect to (Kafka's own names, lower-case). */
export type KafkaSecurityProtocol = 'plaintext' | 'ssl' | 'sasl_ssl' | 'sasl_plaintext'
export type SaslMechanism = 'scram-sha-256' | 'scram-sha-512' | 'plain'

export interface KafkaSasl {
  readonly mechanism: SaslMechanism
  readonly username: string
  readonly password: string
}

/** PEM texts (read from their files once, at start-up), not paths: both clients take them so. */
export interface KafkaTls {
  /** Trusted CA certificates; absent means the system's trust store. */
  readonly ca?: string
  /** Client certificate and key, for listeners that require mutual TLS. */
  readonly cert?: string
  readonly key?: string
  readonly keyPassword?: string
}

/** One set of security settings that each Kafka adapter translates to its client's options. */
export interface KafkaSecurity {
  readonly protocol: KafkaSecurityProtocol
  readonly sasl?: KafkaSasl
  readonly tls?: KafkaTls
}

export const PLAINTEXT: KafkaSecurity = { protocol: 'plaintext' }

export const usesTls = (s: KafkaSecurity): boolean => s.protocol === 'ssl' || s.protocol === 'sasl_ssl'
export const usesSasl = (s: KafkaSecurity): boolean => s.protocol === 'sasl_ssl' || s.protocol === 'sasl_plaintext'
