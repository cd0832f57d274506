import { afterAll, describe, expect, it } from 'vitest'
import { CONSUMERS } from '../../../src/application/consumers/consumer-registry.js'
import { resolveConsumer } from '../../../src/application/consumers/consumer-topics.js'
import { ClickHouseDimensionReader } from '../../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import type { Guid } from '../../../src/domain/guid.js'
import { clickhouseUrl } from '../../support/clickhouse.js'
import {
  binaryRecord, funnelEventPayload, leadCreatedPayload, path, propertyObjectUpsertedPayload, viewActionPayload,
} from '../../support/events.js'
import { KAFKA_ADAPTERS, KAFKA_BROKERS, kafkaBroker, recordsIn } from '../../support/kafka.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources, testAdmin } from '../../support/run-resources.js'

// Issue 7, as a user follows the README: `npm run migrate`, `npm run topics`, then `npm start` with
// the funnel flag on, on the real broker and the real ClickHouse server, with each Kafka client.
// Every consumer gets its own topics and group for this run (DEV_STATS_TOPIC_/GROUP_ overrides).
const run = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`
const createdTopics: string[] = []
const databases: string[] = []

/** The environment of one isolated deployment: own topics, groups and database. */
const deployment = (adapter: string, name: string) => {
  const suffix = `${name}-${adapter}-${run}`
  const database = `npm_start_${name}_${adapter}_${run}`.replace(/-/g, '_')
  const env: Record<string, string> = {
    DEV_STATS_BROKER: adapter,
    DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(','),
    DEV_STATS_STORE: 'clickhouse',
    DEV_STATS_CLICKHOUSE_URL: clickhouseUrl(),
    DEV_STATS_CLICKHOUSE_DATABASE: database,
    DEV_STATS_FUNNEL_ENABLED: 'true',
    DEV_STATS_FLUSH_INTERVAL_MS: '300',
    DEV_STATS_PARKING_BACKOFF_INITIAL_MS: '500',
    DEV_STATS_PARKING_BACKOFF_MAX_MS: '1000',
    DEV_STATS_PARKING_MAX_ATTEMPTS: '100',
    DEV_STATS_LOG_LEVEL: 'info',
  }
  for (const c of CONSUMERS) {
    env[`DEV_STATS_TOPIC_${c.key}`] = `${c.topic}.${suffix}`
    env[`DEV_STATS_GROUP_${c.key}`] = `${c.groupId}.${suffix}`
  }
  const consumers = CONSUMERS.map((c) => resolveConsumer(c, { [c.key]: { topic: env[`DEV_STATS_TOPIC_${c.key}`], group: env[`DEV_STATS_GROUP_${c.key}`] } }))
  const topicOf = (key: string) => consumers.find((c) => c.spec.key === key)!.topics
  databases.push(database)
  createdTopics.push(...consumers.flatMap((c) => [c.topics.source, c.topics.deadLetter, c.topics.retry]))
  return { env, consumers, topicOf, database }
}

afterAll(() => removeRunResources(createdTopics, databases))

// The stages fed by a late dimension: every funnel topic and action-tracked's Views.
const FUNNEL_EVENTS = [
  ['ACTION_TRACKED', 'Views'],
  ['FAVORITES', 'Favorites'],
  ['SELECTIONS', 'Selections'],
  ['LEAD_CREATED', 'Leads'],
  ['CRM_BOOKING', 'Bookings'],
  ['CRM_BOOKING_PAID', 'BookingsPaid'],
  ['CRM_DEAL', 'Deals'],
  ['CRM_DEAL_COMPLETED', 'DealsCompleted'],
] as const
const KEY_FIELD: Record<string, string> = {
  FAVORITES: 'FavoriteId', SELECTIONS: 'SelectionItemId', CRM_BOOKING: 'BookingId', CRM_BOOKING_PAID: 'BookingId', CRM_DEAL: 'DealId', CRM_DEAL_COMPLETED: 'DealId',
}

describe.each(KAFKA_ADAPTERS)('npm start as the README says (%s)', (adapter) => {
  it('runs every consumer; a late dimension on every funnel topic is parked, then counted once the dimension arrives', async () => {
    const d = deployment(adapter, 'late')
    expect(npmRun(['migrate'], d.env)).toMatchObject({ code: 0 })
    const topics = npmRun(['topics'], d.env)
    expect(topics.code, topics.output).toBe(0)
    expect(topics.output).toContain(`${CONSUMERS.length * 3} topics`)
    expect(topics.output).toContain(`${CONSUMERS.length * 3} created`)

    const service = new NpmStart(d.env)
    try {
      await eventuallyAsync(() => service.logLine(/^consuming from/) !== undefined || service.output.includes('dev-stats ingest:'), 90_000, `npm start consuming:\n${service.output}`)
      expect(service.logLine(/^consuming from/)?.['consumers']).toEqual(CONSUMERS.map((c) => c.name))

      const p = path()
      const broker = kafkaBroker(adapter)
      const late = FUNNEL_EVENTS.map(([key]) => {
        const topic = d.topicOf(key).source
        if (key === 'ACTION_TRACKED') return binaryRecord(topic, viewActionPayload(p))
        if (key === 'LEAD_CREATED') return binaryRecord(topic, leadCreatedPayload({ OriginPropertyObjectId: p.PropertyObjectId }))
        return binaryRecord(topic, funnelEventPayload(KEY_FIELD[key] as string, p.PropertyObjectId))
      })
      await broker.producer().publish(late)
      for (const [key] of FUNNEL_EVENTS) {
        await eventuallyAsync(async () => (await recordsIn(d.topicOf(key).retry)) > 0, 60_000, `a parked copy on ${d.topicOf(key).retry}`)
      }
      const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database: d.database })
      const readModel = new ClickHouseReadModel(session)
      const counts = () => readModel.funnelCounts(p.DeveloperId as Guid, { fromDate: '2026-11-30', toDate: '2026-11-30' }, {})
      expect(Object.values(await counts()).every((n) => n === 0)).toBe(true)

      await broker.producer().publish([binaryRecord(d.topicOf('PROPERTY_OBJECT_UPSERTED').source, propertyObjectUpsertedPayload(p))])
      const expected = Object.fromEntries(FUNNEL_EVENTS.map(([, stage]) => [stage, 1]))
      await eventuallyAsync(async () => {
        const c = await counts()
        return FUNNEL_EVENTS.every(([, stage]) => c[stage] >= 1)
      }, 90_000,
        `every stage counted once:\n${service.output.slice(-3000)}`)
      expect(await counts()).toMatchObject(expected)
      for (const [key] of FUNNEL_EVENTS) expect(await recordsIn(d.topicOf(key).deadLetter)).toBe(0)

      // The object moves to another developer: once the move is stored, the next favorite is the
      // new developer's, though the favorites consumer looked the object up (and cached it) before.
      const moved = { ...path(), PropertyObjectId: p.PropertyObjectId }
      await broker.producer().publish([binaryRecord(d.topicOf('PROPERTY_OBJECT_UPSERTED').source, propertyObjectUpsertedPayload(moved, { UpsertedAt: '2026-11-02T00:00:00Z' }))])
      const dims = new ClickHouseDimensionReader(session)
      await eventuallyAsync(async () => (await dims.latestPaths([p.PropertyObjectId as Guid])).get(p.PropertyObjectId as Guid)?.developerId === moved.DeveloperId, 60_000, 'the move stored')
      await broker.producer().publish([binaryRecord(d.topicOf('FAVORITES').source, funnelEventPayload('FavoriteId', p.PropertyObjectId))])
      const favoritesOf = async (developerId: string) => (await readModel.funnelCounts(developerId as Guid, { fromDate: '2026-11-30', toDate: '2026-11-30' }, {})).Favorites
      await eventuallyAsync(async () => (await favoritesOf(moved.DeveloperId)) >= 1, 60_000, `the favorite after the move counted for the new developer:\n${service.output.slice(-2000)}`)
      expect([await favoritesOf(p.DeveloperId), await favoritesOf(moved.DeveloperId)]).toEqual([1, 1])
      await session.close()
      await broker.close()
    } finally {
      await service.stop()
    }
    // npm itself dies of the SIGTERM; the service's last log line says it finished cleanly
    expect(service.logLine(/^stopped$/), service.output.slice(-2000)).toBeDefined()
  })

  it('deleted topics (a retry and a dead-letter topic): npm start exits 1 naming both, before any consumer joins its group', async () => {
    const d = deployment(adapter, 'gone')
    expect(npmRun(['migrate'], d.env).code).toBe(0)
    expect(npmRun(['topics'], d.env).code).toBe(0)
    const gone = [d.topicOf('ACTION_TRACKED').retry, d.topicOf('CRM_DEAL').deadLetter]
    const a = testAdmin()
    await a.connect()
    await a.deleteTopics({ topics: gone })
    await eventuallyAsync(async () => !(await a.listTopics()).some((t) => gone.includes(t)), 30_000, 'topics deleted')

    const service = new NpmStart(d.env)
    const exit = await service.exited
    expect(exit.code, service.output).toBe(1)
    expect(service.output).toContain(`2 topic(s) missing on the broker: ${gone[0]}, ${gone[1]}`)
    const groups = await a.describeGroups(d.consumers.map((c) => c.groupId))
    await a.disconnect()
    expect(groups.groups.map((g) => g.members.length)).toEqual(d.consumers.map(() => 0))
  })
})
