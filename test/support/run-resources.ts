import kafkajs from 'kafkajs'
import { serverSession } from '../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../src/adapters/clickhouse/sql-fragment.js'
import { clickhouseUrl } from './clickhouse.js'
import { KAFKA_BROKERS } from './kafka.js'

/** A kafkajs admin client on the test broker (connect and disconnect it yourself). */
export const testAdmin = (): kafkajs.Admin =>
  new kafkajs.Kafka({ clientId: 'dev-stats-test-admin', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin()

/** Deletes the topics (those that still exist) and drops the databases a test run made. */
export const removeRunResources = async (topics: readonly string[], databases: readonly string[]): Promise<void> => {
  const a = testAdmin()
  await a.connect()
  const existing = new Set(await a.listTopics())
  await a.deleteTopics({ topics: topics.filter((t) => existing.has(t)) }).catch(() => undefined)
  await a.disconnect()
  const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: 'default' })
  for (const db of databases) await session.command(sql`DROP DATABASE IF EXISTS ${ident(db)}`)
  await session.close()
}
