import { describe, expect, it } from 'vitest'
import { clickhouseFailureOf } from '../../../../src/adapters/clickhouse/clickhouse-connection-failure.js'
import { transportFailureOf } from '../../../../src/adapters/connection-failure.js'
import { confluentSecurity } from '../../../../src/adapters/kafka/librdkafka/confluent-security.js'
import type { KafkaSecurity } from '../../../../src/adapters/kafka/shared/kafka-security.js'
import { kafkajsSecurity } from '../../../../src/adapters/kafka/shared/kafkajs-security.js'
import { StoreError } from '../../../../src/application/ports/store-error.js'

const SASL_SSL: KafkaSecurity = {
  protocol: 'sasl_ssl',
  sasl: { mechanism: 'scram-sha-512', username: 'svc', password: 'pw' },
  tls: { ca: 'CA', cert: 'CERT', key: 'KEY', keyPassword: 'kp' },
}

describe('one set of security settings, each client its own options', () => {
  it('kafkajs: ssl as tls.connect options, sasl as is', () => {
    expect(kafkajsSecurity(SASL_SSL)).toEqual({
      ssl: { rejectUnauthorized: true, ca: ['CA'], cert: 'CERT', key: 'KEY', passphrase: 'kp' },
      sasl: { mechanism: 'scram-sha-512', username: 'svc', password: 'pw' },
    })
    expect(kafkajsSecurity({ protocol: 'plaintext' })).toEqual({})
    expect(kafkajsSecurity({ protocol: 'ssl' })).toEqual({ ssl: { rejectUnauthorized: true } })
  })

  it('librdkafka: properties with PEM texts', () => {
    expect(confluentSecurity(SASL_SSL)).toEqual({
      'security.protocol': 'sasl_ssl',
      'sasl.mechanisms': 'SCRAM-SHA-512', 'sasl.username': 'svc', 'sasl.password': 'pw',
      'ssl.endpoint.identification.algorithm': 'https',
      'ssl.ca.pem': 'CA', 'ssl.certificate.pem': 'CERT', 'ssl.key.pem': 'KEY', 'ssl.key.password': 'kp',
    })
    expect(confluentSecurity()).toEqual({ 'security.protocol': 'plaintext' })
  })
})

describe('connection failures a user can act on', () => {
  it.each([
    [{ code: 'SELF_SIGNED_CERT_IN_CHAIN' }, 'unknown-ca'],
    [{ code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' }, 'unknown-ca'],
    [{ code: 'ERR_TLS_CERT_ALTNAME_INVALID' }, 'hostname'],
    [{ code: 'EPROTO', message: 'ssl3_get_record:wrong version number' }, 'not-tls'],
    [{ code: 'ECONNRESET', message: 'Client network socket disconnected before secure TLS connection was established' }, 'not-tls'],
    [{ code: 'ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE', message: 'sslv3 alert bad certificate' }, 'client-cert'],
    [{ code: 'ECONNREFUSED' }, 'unreachable'],
    [{ code: 'ECONNRESET' }, undefined],
  ])('%o → %s', (e, failure) => expect(transportFailureOf(e)).toBe(failure))

  it('ClickHouse: wrong password by server code, plain HTTP to a TLS port by a reset connection', () => {
    expect(clickhouseFailureOf(new StoreError('Wrong password', false, 'CLICKHOUSE_193'), true)).toBe('auth')
    expect(clickhouseFailureOf(new StoreError('Authentication failed', false, 'CLICKHOUSE_516'), true)).toBe('auth')
    expect(clickhouseFailureOf(new StoreError('read ECONNRESET', true, 'ECONNRESET'), false)).toBe('expects-tls')
    expect(clickhouseFailureOf(new StoreError('read ECONNRESET', true, 'ECONNRESET'), true)).toBeUndefined()
    const cause = Object.assign(new Error('unable to verify the first certificate'), { code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE' })
    expect(clickhouseFailureOf(new StoreError(cause.message, false, 'X', { cause }), true)).toBe('unknown-ca')
  })
})
