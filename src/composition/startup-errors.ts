import { clickhouseFailureOf } from '../adapters/clickhouse/clickhouse-connection-failure.js'
import type { ConnectionFailure } from '../adapters/connection-failure.js'
import { answersTls } from '../adapters/answers-tls.js'
import type { IngestConfig } from './config.js'

const SASL_LOGIN = 'DEV_STATS_KAFKA_SASL_USERNAME and DEV_STATS_KAFKA_SASL_PASSWORD (or DEV_STATS_KAFKA_SASL_PASSWORD_FILE)'

const KAFKA_HINTS: Record<ConnectionFailure, string> = {
  auth: `the broker rejected the login: check ${SASL_LOGIN}`,
  'sasl-mechanism': 'the broker does not offer this SASL mechanism: check DEV_STATS_KAFKA_SASL_MECHANISM',
  'unknown-ca': "the broker's certificate is not signed by a CA this client trusts: check DEV_STATS_KAFKA_SSL_CA_FILE",
  hostname: "the broker's certificate does not name the host connected to: check the host names in DEV_STATS_KAFKA_BROKERS",
  'client-cert': 'the listener requires a client certificate it accepts: check DEV_STATS_KAFKA_SSL_CERT_FILE and DEV_STATS_KAFKA_SSL_KEY_FILE',
  'expects-tls': 'the listener expects TLS: check DEV_STATS_KAFKA_SECURITY_PROTOCOL (ssl or sasl_ssl) and the port in DEV_STATS_KAFKA_BROKERS',
  'not-tls': 'the listener does not speak TLS: check DEV_STATS_KAFKA_SECURITY_PROTOCOL (plaintext or sasl_plaintext) and the port in DEV_STATS_KAFKA_BROKERS',
  unreachable: 'check DEV_STATS_KAFKA_BROKERS',
  timeout: 'no answer in time: check DEV_STATS_KAFKA_BROKERS and DEV_STATS_KAFKA_SECURITY_PROTOCOL',
  reset: 'a network fault between this host and the broker (a proxy, a firewall, a restart), not a setting: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
  silent: 'a network fault between this host and the broker (a proxy, a firewall, a half-open connection), not a setting: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
  'cut-short': 'a network fault between this host and the broker (a proxy or a connection cut), not a setting: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
}

const CLICKHOUSE_HINTS: Record<ConnectionFailure, string> = {
  auth: 'the server rejected the login: check DEV_STATS_CLICKHOUSE_USER and DEV_STATS_CLICKHOUSE_PASSWORD (or DEV_STATS_CLICKHOUSE_PASSWORD_FILE)',
  'sasl-mechanism': 'check DEV_STATS_CLICKHOUSE_USER',
  'unknown-ca': "the server's certificate is not signed by a CA this client trusts: check DEV_STATS_CLICKHOUSE_CA_FILE",
  hostname: "the server's certificate does not name the host connected to: check the host in DEV_STATS_CLICKHOUSE_URL",
  'client-cert': 'the server requires a client certificate, which this service does not send',
  'expects-tls': 'the server closed the connection on a plain HTTP request: if that port serves HTTPS, use an https:// DEV_STATS_CLICKHOUSE_URL',
  'not-tls': 'the port does not speak TLS: use http:// in DEV_STATS_CLICKHOUSE_URL, or the HTTPS port of the server',
  unreachable: 'check DEV_STATS_CLICKHOUSE_URL',
  timeout: 'no answer in time: check DEV_STATS_CLICKHOUSE_URL',
  reset: 'the connection was reset, and the port answers no TLS handshake either: a network fault between this host and the server (a proxy, a firewall, a restart), not a setting: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
  silent: 'no answer in time: a network fault between this host and the server (a proxy, a firewall, a half-open connection) or a server too busy to answer: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
  'cut-short': 'the answer was cut short: a network fault between this host and the server, not a setting: start tries again until DEV_STATS_STARTUP_TIMEOUT_SECONDS',
}

/** Every secret of the configuration, masked wherever it might appear in a message. */
export const redactSecrets = (text: string, config: IngestConfig): string => {
  const { sasl, tls } = config.kafka.security
  const secrets = [sasl?.password, tls?.keyPassword, config.clickhouse.password].filter((s): s is string => Boolean(s && s.length >= 4))
  return secrets.reduce((t, s) => t.split(s).join('***'), text)
}

const messageOf = (e: unknown): string => String((e as Error)?.message ?? e)

const withHint = (e: unknown, hint: string | undefined, config: IngestConfig): string =>
  redactSecrets(hint ? `${messageOf(e)}\n  ${hint}` : messageOf(e), config)

/** A Kafka start-up failure with the setting to check (ConnectionError from an adapter's checkConnection). */
export const explainKafkaFailure = (e: unknown, config: IngestConfig): string => {
  const failure = (e as { failure?: ConnectionFailure })?.failure
  return withHint(e, failure ? KAFKA_HINTS[failure] : undefined, config)
}

/**
 * Why the ClickHouse server's start-up probe failed, as far as a setting or the network is to
 * blame. A plain-HTTP request closed without an answer is a TLS port's doing only when that port
 * answers a TLS handshake (`answersTls`); otherwise the network reset it. A request with no
 * answer within its timeout: silence on the way.
 */
export const clickhouseStartupFailure = async (
  e: unknown,
  config: IngestConfig,
  tlsAnswers: (host: string, port: number) => Promise<boolean> = answersTls,
): Promise<ConnectionFailure | undefined> => {
  const failure = clickhouseFailureOf(e, config.clickhouse.url.toLowerCase().startsWith('https:'))
  if (failure === 'expects-tls') {
    const { hostname, port } = new URL(config.clickhouse.url)
    return (await tlsAnswers(hostname.replace(/^\[|\]$/g, ''), Number(port || 80))) ? 'expects-tls' : 'reset'
  }
  if (failure === undefined && /timeout/i.test(messageOf(e))) return 'silent'
  return failure
}

/** A ClickHouse start-up failure (StoreError from the probe) with the setting to check. */
export const explainClickHouseFailure = (e: unknown, config: IngestConfig, failure = clickhouseFailureOf(e, config.clickhouse.url.toLowerCase().startsWith('https:'))): string =>
  withHint(e, failure ? CLICKHOUSE_HINTS[failure] : undefined, config)
