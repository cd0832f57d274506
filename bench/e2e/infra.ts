import { createClient, type ClickHouseClient } from '@clickhouse/client'
import kafkajs from 'kafkajs'

// The two servers the bench talks to, and the admin steps it needs on them.

export const KAFKA_BROKERS = (process.env.DEV_STATS_KAFKA_BROKERS ?? '127.0.0.1:19092').split(',')
export const CLICKHOUSE_URL = process.env.DEV_STATS_CLICKHOUSE_URL ?? 'http://127.0.0.1:18123'

export const clickhouse = (): ClickHouseClient =>
  createClient({ url: CLICKHOUSE_URL, username: process.env.DEV_STATS_CLICKHOUSE_USER ?? 'default', password: process.env.DEV_STATS_CLICKHOUSE_PASSWORD ?? '', request_timeout: 120_000 })

export const withAdmin = async <T>(work: (a: kafkajs.Admin) => Promise<T>): Promise<T> => {
  const a = new kafkajs.Kafka({ clientId: 'dev-stats-bench-admin', brokers: KAFKA_BROKERS, logLevel: kafkajs.logLevel.NOTHING }).admin()
  await a.connect()
  try {
    return await work(a)
  } finally {
    await a.disconnect()
  }
}

/** Retries for 30 s: a broker started a moment ago answers metadata before it hosts new partitions. */
export const createTopics = async (topics: readonly { name: string; partitions: number }[]): Promise<void> => {
  const deadline = Date.now() + 30_000
  for (;;) {
    try {
      await withAdmin((a) =>
        a.createTopics({ topics: topics.map((t) => ({ topic: t.name, numPartitions: t.partitions, replicationFactor: 1 })), waitForLeaders: true }),
      )
      return
    } catch (e) {
      if (!(e as { retriable?: boolean }).retriable || Date.now() > deadline) throw e
      await sleep(500)
    }
  }
}

export const deleteTopics = (names: readonly string[]): Promise<void> =>
  withAdmin((a) => a.deleteTopics({ topics: [...names] })).catch(() => undefined)

/** A new group starts at the latest offset in ClickHouse's engine: commit 0 first to read a backlog. */
export const commitOffsetZero = (groupId: string, topic: string, partitions: number): Promise<void> =>
  withAdmin((a) => a.setOffsets({ groupId, topic, partitions: Array.from({ length: partitions }, (_, partition) => ({ partition, offset: '0' })) }))

export const groupMembers = (groupId: string): Promise<number> =>
  withAdmin(async (a) => (await a.describeGroups([groupId])).groups[0]?.members.length ?? 0)

export const rowCount = async (ch: ClickHouseClient, table: string): Promise<number> => {
  const r = await ch.query({ query: `SELECT count() AS n FROM ${table}`, format: 'JSONEachRow' })
  return Number(((await r.json()) as { n: string }[])[0]?.n ?? 0)
}

/** The rows of a table's active parts: what count() says, from the parts' metadata (no column read: cheap beside millions of rows). */
export const partsRowCount = async (ch: ClickHouseClient, table: string): Promise<number> => {
  const [database, name] = table.split('.') as [string, string]
  if (!/^\w+$/.test(database) || !/^\w+$/.test(name)) throw new Error(`not a table name: ${table}`)
  const r = await ch.query({ query: `SELECT sum(rows) AS n FROM system.parts WHERE database = '${database}' AND table = '${name}' AND active`, format: 'JSONEachRow' })
  return Number(((await r.json()) as { n: string }[])[0]?.n ?? 0)
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))
