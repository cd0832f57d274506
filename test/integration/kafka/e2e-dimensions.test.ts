import { randomUUID } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import type { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import { dimensionUpsertedHandler } from '../../../src/application/handlers/dimension-upserted.handler.js'
import { UPPER_LEVELS } from '../../../src/domain/dimension-upsert.js'
import type { Guid } from '../../../src/domain/guid.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { clickhouseEngine } from '../../support/clickhouse-engine.js'
import { binaryRecord, EMPTY, path } from '../../support/events.js'
import { createConsumerTopics, KAFKA_ADAPTERS, kafkaBroker, lagOf } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'

// Issue 9, part 1 on real Kafka and the ClickHouse server: the five upper dimension consumers write
// every version to their dim_* table; the read side takes the latest name per id (argMax, never
// FINAL), whatever the arrival order; poison goes to the dead-letter topic.
describe.each(KAFKA_ADAPTERS)('upper dimensions on Kafka and ClickHouse (%s)', (adapter) => {
  const id = randomUUID().slice(0, 8)
  const handlers = UPPER_LEVELS.map((level) => dimensionUpsertedHandler(level)(`e2e.dim-${level}.${id}`, `e2e-dim-${level}-${id}`))
  const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: `dev_stats_e2e_dims_${adapter}_${id}` })
  const broker = kafkaBroker(adapter)
  const engines: ConsumerEngine[] = []

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.stop()))
    await broker.close()
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(session.database)}`)
    await session.close()
  })

  it('each level: the newest name wins over a late older version; an empty Id is dead-lettered', async () => {
    await resetDatabase(session)
    for (const h of handlers) await createConsumerTopics(h, 2)
    for (const h of handlers) {
      const engine = clickhouseEngine(broker, session, h)
      engines.push(engine)
      await engine.start()
    }
    const p = path()
    const parents = { DeveloperId: p.DeveloperId, ProjectId: p.ProjectId, BuildingId: p.BuildingId, LayoutGroupId: p.LayoutGroupId }
    const ids = [p.DeveloperId, p.ProjectId, p.BuildingId, p.LayoutGroupId, p.LayoutId]
    const records = handlers.flatMap((h, i) => {
      const body = { ...parents, Id: ids[i] }
      return [
        binaryRecord(h.topic, { ...body, UpsertedAt: '2026-11-30T10:00:00Z', Name: `new ${UPPER_LEVELS[i]}` }, { key: ids[i] }),
        binaryRecord(h.topic, { ...body, UpsertedAt: '2026-11-30T09:00:00Z', Name: `old ${UPPER_LEVELS[i]}` }, { key: ids[i] }),
        binaryRecord(h.topic, { ...body, Id: EMPTY, UpsertedAt: '2026-11-30T09:00:00Z' }, { key: 'poison' }),
      ]
    })
    await broker.producer().publish(records)
    await eventuallyAsync(async () => (await Promise.all(handlers.map((h) => lagOf(h.groupId, h.topic)))).every((l) => l === 0), 90_000, 'caught up')
    const readModel = new ClickHouseReadModel(session)
    for (const [i, level] of UPPER_LEVELS.entries()) {
      const dimId = ids[i] as Guid
      expect(await readModel.dimensionNames(level, [dimId])).toEqual(new Map([[dimId, `new ${level}`]]))
    }
    const deadLetters = await Promise.all(handlers.map(async (h) => (await broker.partitionOffsets(`${h.topic}.dlq`)).reduce((n, o) => n + Number(o.high), 0)))
    expect(deadLetters).toEqual([1, 1, 1, 1, 1])
  })
})
