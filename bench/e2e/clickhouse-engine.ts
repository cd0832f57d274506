import type { ClickHouseClient } from '@clickhouse/client'
import { commitOffsetZero, groupMembers, KAFKA_BROKERS, sleep } from './infra.js'

// Contender (a): ClickHouse's own Kafka table engine (librdkafka inside the server) with a
// materialized view into a table of session_facts' shape. The engine cannot read Kafka headers,
// so its FactId is the SessionId (unique per record in this bench).

const EMPTY = "'00000000-0000-0000-0000-000000000000'"

const statements = (db: string, topic: string, group: string): string[] => [
  `CREATE DATABASE IF NOT EXISTS ${db}`,
  `CREATE TABLE ${db}.session_facts (FactId String, SourceEventId String, SessionId UUID, AnonymousId UUID,
     UserId Nullable(UUID), ViewerKind String, TenantId UUID, BrandId Nullable(UUID), DeveloperId Nullable(UUID),
     EventTime DateTime('UTC'), StartedAt DateTime('UTC'), LastActivityAt DateTime('UTC'), DurationSeconds UInt32,
     IngestionTime DateTime('UTC'))
   ENGINE = ReplacingMergeTree(IngestionTime) PARTITION BY toYYYYMM(EventTime) ORDER BY (SessionId, FactId)`,
  `CREATE TABLE ${db}.session_ended_queue (SessionId String, AnonymousId String, UserId Nullable(String),
     CreatedAt String, LastActivityAt String, DurationSeconds Int64)
   ENGINE = Kafka SETTINGS kafka_broker_list = '${KAFKA_BROKERS.join(',')}', kafka_topic_list = '${topic}',
     kafka_group_name = '${group}', kafka_format = 'JSONEachRow', kafka_num_consumers = 1`,
  // toUUID(NULL) throws on 18.16 and if() evaluates both branches: map NULL through the empty GUID.
  // 18.16 resolves a name to the alias of the same name, so FactId reads the SessionId alias (a UUID).
  `CREATE MATERIALIZED VIEW ${db}.session_facts_mv TO ${db}.session_facts AS SELECT
     toString(SessionId) AS FactId, toString(SessionId) AS SourceEventId, toUUID(SessionId) AS SessionId,
     toUUID(AnonymousId) AS AnonymousId, nullIf(toUUID(ifNull(UserId, ${EMPTY})), toUUID(${EMPTY})) AS UserId,
     if(isNull(UserId), 'Guest', 'User') AS ViewerKind, toUUID(${EMPTY}) AS TenantId,
     CAST(NULL AS Nullable(UUID)) AS BrandId, CAST(NULL AS Nullable(UUID)) AS DeveloperId,
     parseDateTimeBestEffort(CreatedAt) AS EventTime, parseDateTimeBestEffort(CreatedAt) AS StartedAt,
     parseDateTimeBestEffort(LastActivityAt) AS LastActivityAt, toUInt32(DurationSeconds) AS DurationSeconds,
     now() AS IngestionTime
   FROM ${db}.session_ended_queue`,
]

export interface EngineRun {
  readonly table: string
  /** When the view was created: the engine starts consuming from here. */
  readonly startedAt: number
  /** Resolves once the consumer group has a member (steady mode waits for it before producing). */
  joined(): Promise<void>
  stop(): Promise<void>
}

export const startClickHouseEngine = async (ch: ClickHouseClient, db: string, topic: string, partitions: number): Promise<EngineRun> => {
  const group = `${db}-engine`
  await commitOffsetZero(group, topic, partitions)
  const [createDb, target, queue, view] = statements(db, topic, group) as [string, string, string, string]
  for (const q of [createDb, target, queue]) await ch.command({ query: q })
  const startedAt = performance.now()
  await ch.command({ query: view })
  return {
    table: `${db}.session_facts`,
    startedAt,
    joined: async () => {
      const deadline = Date.now() + 60_000
      while ((await groupMembers(group)) === 0) {
        if (Date.now() > deadline) throw new Error(`ClickHouse's Kafka engine did not join ${group} in 60 s`)
        await sleep(200)
      }
    },
    stop: async () => {
      await ch.command({ query: `DROP TABLE IF EXISTS ${db}.session_facts_mv` })
      await ch.command({ query: `DROP TABLE IF EXISTS ${db}.session_ended_queue` })
    },
  }
}
