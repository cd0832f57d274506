import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { ClickHouseDimensionReader } from '../../../src/adapters/clickhouse/clickhouse-dimension-reader.js'
import { ClickHouseReadModel } from '../../../src/adapters/clickhouse/clickhouse-read-model.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { ident, sql } from '../../../src/adapters/clickhouse/sql-fragment.js'
import { replayGroupOf } from '../../../src/application/dlq/replay-dead-letters.js'
import { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import type { EventHandler } from '../../../src/application/handlers/event-handler.js'
import { funnelStageHandler } from '../../../src/application/handlers/funnel-stage.handler.js'
import { propertyObjectUpsertedHandler } from '../../../src/application/handlers/property-object-upserted.handler.js'
import type { Guid } from '../../../src/domain/guid.js'
import { clickhouseUrl, resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, guid, path, propertyObjectUpsertedPayload } from '../../support/events.js'
import { createTopics, KAFKA_ADAPTERS, KAFKA_BROKERS, kafkaBroker, lagOf } from '../../support/kafka.js'
import { clickhouseEngine } from '../../support/clickhouse-engine.js'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { committedOffsets, sumOf } from './group-offsets.js'

// Issue 9, the dead-letter tool on real Kafka and the ClickHouse server: favorites whose property
// object is unknown are parked, then dead-lettered as dimension-gap; the dimension arrives; the
// replay (`npm run dlq`, a child process) is SIGKILLed half-way, run again (it resumes) and once
// more (nothing left): the funnel counts every favorite once.
const N = 1000
const ROOT = fileURLToPath(new URL('../../..', import.meta.url))

const dlq = (adapter: string, args: string[]): ChildProcess =>
  // detached: its own process group, so a SIGKILL reaches tsx under npm too
  spawn('npm', ['run', '--silent', 'dlq', '--', ...args], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DEV_STATS_BROKER: adapter, DEV_STATS_KAFKA_BROKERS: KAFKA_BROKERS.join(',') },
  })

const finished = (child: ChildProcess): Promise<{ code: number | null; out: string }> => {
  let out = ''
  child.stdout?.on('data', (d) => (out += String(d)))
  child.stderr?.on('data', (d) => (out += String(d)))
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out })))
}

describe.each(KAFKA_ADAPTERS)('npm run dlq -- replay on Kafka and ClickHouse (%s)', (adapter) => {
  const id = randomUUID().slice(0, 8)
  const favorites = funnelStageHandler({
    name: 'funnel-favorites', stage: 'Favorites', keyField: 'FavoriteId', topic: `e2e.dlq-favorites.${id}`, groupId: `e2e-dlq-favorites-${id}`,
  })
  const dims = propertyObjectUpsertedHandler(`e2e.dlq-dims.${id}`, `e2e-dlq-dims-${id}`)
  const database = `dev_stats_e2e_dlq_${adapter}_${id}`
  const session = serverSession({ url: clickhouseUrl(), user: 'default', password: '', database })
  const broker = kafkaBroker(adapter)
  const engines: ConsumerEngine[] = []

  afterAll(async () => {
    await Promise.all(engines.map((e) => e.stop()))
    await broker.close()
    await session.command(sql`DROP DATABASE IF EXISTS ${ident(database)}`)
    await session.close()
  })

  const start = async (handler: EventHandler) => {
    const engine = clickhouseEngine(broker, session, handler)
    engines.push(engine)
    await engine.start()
  }
  const caughtUp = async (h: EventHandler) => (await lagOf(h.groupId, h.topic)) === 0 && (await lagOf(h.groupId, `${h.groupId}.retry`)) === 0
  const favoritesCounted = async (developerId: string) => {
    const day = new Date().toISOString().slice(0, 10)
    return (await new ClickHouseReadModel(session).funnelCounts(developerId as Guid, { fromDate: day, toDate: day }, {})).Favorites
  }

  it(`${N} dimension-gap dead letters: replay killed half-way, resumed, run again; counted once`, async () => {
    await resetDatabase(session)
    await createTopics([favorites, dims].flatMap((h) => [
      { name: h.topic, partitions: 3 }, { name: `${h.topic}.dlq`, partitions: 2 }, { name: `${h.groupId}.retry`, partitions: 1 },
    ]))
    await start(favorites)
    await start(dims)
    const p = path()
    const now = new Date().toISOString()
    const records = Array.from({ length: N }, () => {
      const favoriteId = guid()
      return binaryRecord(favorites.topic, { FavoriteId: favoriteId, PropertyObjectId: p.PropertyObjectId, OccurredAt: now }, { key: favoriteId })
    })
    await broker.producer().publish(records)
    const dlqTopic = `${favorites.topic}.dlq`
    const deadLetters = async () => (await broker.partitionOffsets(dlqTopic)).reduce((n, o) => n + Number(o.high), 0)
    await eventuallyAsync(async () => (await deadLetters()) === N && (await caughtUp(favorites)), 120_000, 'every favorite dead-lettered')
    expect(await favoritesCounted(p.DeveloperId)).toBe(0)

    const summary = await finished(dlq(adapter, ['summary', '--topic', favorites.topic]))
    expect(summary.code, summary.out).toBe(0)
    expect(summary.out).toMatch(new RegExp(`${favorites.topic.replace(/\./g, '\\.')}\\s+dimension-gap\\s+${N}\\s`))

    await broker.producer().publish([binaryRecord(dims.topic, propertyObjectUpsertedPayload(p))])
    await eventuallyAsync(async () => (await new ClickHouseDimensionReader(session).latestPaths([p.PropertyObjectId as Guid])).size === 1, 60_000, 'dimension')

    // 1. killed half-way: --rate keeps it running for seconds, the kill comes after its first commit
    const group = replayGroupOf(favorites.topic, { reason: 'dimension-gap' })
    const args = ['replay', '--topic', favorites.topic, '--reason', 'dimension-gap']
    const first = dlq(adapter, [...args, '--rate', '200'])
    const firstExit = finished(first)
    await eventuallyAsync(async () => sumOf(await committedOffsets(group, dlqTopic)) > 0, 60_000, 'the replay committed something')
    process.kill(-(first.pid as number), 'SIGKILL')
    expect((await firstExit).code).toBeNull()
    const committedAtKill = sumOf(await committedOffsets(group, dlqTopic))
    expect(committedAtKill).toBeGreaterThan(0)
    expect(committedAtKill).toBeLessThan(N)

    // 2. run again: resumes after the last commit
    const second = await finished(dlq(adapter, args))
    expect(second.code, second.out).toBe(0)
    const replayed = Number(/(\d+) replayed/.exec(second.out)?.[1])
    expect(replayed).toBe(N - committedAtKill)
    await eventuallyAsync(async () => (await favoritesCounted(p.DeveloperId)) === N && (await caughtUp(favorites)), 120_000, 'every favorite counted')

    // 3. and again: nothing left, nothing changes
    const third = await finished(dlq(adapter, args))
    expect(third.code, third.out).toBe(0)
    expect(third.out).toContain('replayed 0 dead letter(s)')
    await eventuallyAsync(() => caughtUp(favorites), 60_000, 'caught up')
    expect(await favoritesCounted(p.DeveloperId)).toBe(N)
    expect(await deadLetters()).toBe(N) // nothing was dead-lettered again
    // the source topic got every dead letter once, plus at most the one step in flight at the kill
    const republished = (await broker.partitionOffsets(favorites.topic)).reduce((n, o) => n + Number(o.high), 0) - N
    expect(republished).toBeGreaterThanOrEqual(N)
    expect(republished).toBeLessThanOrEqual(N + 100)
  })
})
