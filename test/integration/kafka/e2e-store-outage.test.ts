import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ClickHouseFactStore } from '../../../src/adapters/clickhouse/clickhouse-fact-store.js'
import { serverSession } from '../../../src/adapters/clickhouse/server-session.factory.js'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { resetDatabase } from '../../support/clickhouse.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { freePort } from '../../support/http.js'
import { KAFKA_ADAPTERS, recordsIn } from '../../support/kafka.js'
import { KafkaHarness, eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { OwnClickHouse } from '../../support/own-clickhouse.js'
import { committedButNotStored, committedOffsets, positionsOf, sumOf } from './group-offsets.js'
import { confirmingSink, expectEveryRecordOnce } from './store-outage.js'

// Issue 4, store outage on real Kafka: the real ClickHouse server is stopped while the engine
// ingests from a real broker. Inserts are retried with the consumer paused, no offset is committed
// past data not confirmed inserted, nothing is dead-lettered, and after the restart every event is
// in ClickHouse exactly once logically.
const EVENTS = 2400
const WAVE = 200
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

// The server stopped is one of this file's own (own ports and state): the shared one keeps serving
// the files running meanwhile.
const clickhouse = new OwnClickHouse(await freePort(), await freePort())
beforeAll(() => clickhouse.start())
afterAll(() => clickhouse.dispose())

describe.each(KAFKA_ADAPTERS)('ClickHouse server outage on Kafka (%s)', (adapter) => {
  const sessions = isolated(sessionEndedHandler, `outage-${adapter}`)
  const database = `dev_stats_e2e_outage_${adapter}_${sessions.groupId.slice(-8).replace(/-/g, '_')}`
  const session = serverSession({ url: clickhouse.url, user: 'default', password: '', database })
  let h: KafkaHarness | undefined

  afterAll(async () => {
    await clickhouse.startNonBlocking() // idempotent; the next adapter's test needs it even if this one failed mid-outage
    await h?.stopAll()
    await session.close()
  })

  it(`${EVENTS} events through a stop and start of the server: retried, never committed ahead, none dead-lettered, none lost`, async () => {
    await resetDatabase(session)
    h = new KafkaHarness(adapter, [sessions], {
      maxBatchRows: 100, flushIntervalMs: 100, sinkBackoff: { initialMs: 100, maxMs: 1000 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } },
    })
    const { sink, confirmed, failedInserts } = confirmingSink(new ClickHouseFactStore(session))
    h.sink = sink
    await h.start()
    const engine = h.engine(sessions.name)
    const records = Array.from({ length: EVENTS }, () => {
      const p = sessionEndedPayload()
      return binaryRecord(sessions.topic, p, { key: p.SessionId as string })
    })
    let published = 0
    const publishWaves = async (n: number) => {
      for (let i = 0; i < n && published < EVENTS; i++, published += WAVE) {
        await h?.publish(...records.slice(published, published + WAVE))
        await sleep(150)
      }
    }
    // While the server is down: committed offsets first, then how much was confirmed by then.
    const samples: { committed: Map<number, bigint>; confirmed: number }[] = []
    const sample = async () => {
      const committed = await committedOffsets(sessions.groupId, sessions.topic)
      samples.push({ committed, confirmed: confirmed.length })
    }

    await publishWaves(4)
    await eventuallyAsync(() => confirmed.length > 0, 30_000, 'a first insert')
    const beforeOutage = confirmed.length
    await Promise.all([clickhouse.stopNonBlocking(), publishWaves(4)])
    const retriesAtStop = engine.stats.sinkRetries
    const outageStarted = Date.now()
    const publishing = publishWaves(EVENTS / WAVE)
    while (Date.now() - outageStarted < 4000 || engine.stats.sinkRetries - retriesAtStop < 4) {
      if (Date.now() - outageStarted > 60_000) throw new Error('no retries during the outage')
      await sample()
      await sleep(250)
    }
    await publishing
    await sample()
    const retriesDuringOutage = engine.stats.sinkRetries - retriesAtStop
    const confirmedDuringOutage = samples.at(-1)?.confirmed ?? 0
    await clickhouse.startNonBlocking()
    await eventuallyAsync(() => h?.caughtUp(sessions) ?? false, 120_000, 'caught up after the restart')

    // Offsets never ahead of inserted data, at any moment of the outage.
    const positions = await positionsOf(h.broker, sessions.topic, EVENTS)
    expect(positions.size).toBe(EVENTS)
    for (const s of samples) expect(committedButNotStored(s.committed, positions, new Set(confirmed.slice(0, s.confirmed)))).toEqual([])
    // Retries happened and were counted; nothing was dead-lettered.
    expect(confirmedDuringOutage).toBeLessThan(EVENTS) // the outage held data back
    expect(retriesDuringOutage).toBeGreaterThanOrEqual(4)
    expect(failedInserts()).toBeGreaterThanOrEqual(retriesDuringOutage)
    expect(await h.metric('dev_stats_sink_retries_total')).toBe(engine.stats.sinkRetries)
    expect(engine.stats.deadLettered).toBe(0)
    expect(await h.metric('dev_stats_dlq_total')).toBe(0)
    expect(await recordsIn(h.topicsOf(sessions).deadLetter)).toBe(0)

    // Every event exactly once logically in ClickHouse; every committed one among them.
    await expectEveryRecordOnce(session, database, records, sessions.groupId, sessions.topic, positions, (stored) =>
      console.info(`[outage ${adapter}] events ${EVENTS}; inserted before the stop ${beforeOutage}, confirmed until the restart ${confirmedDuringOutage}; ` +
        `retries during the outage ${retriesDuringOutage} (total ${engine.stats.sinkRetries}, failed inserts ${failedInserts()}); ` +
        `committed at the end of the outage ${sumOf(samples.at(-1)?.committed ?? new Map())}, finally ${stored.committed}; ` +
        `dead letters ${engine.stats.deadLettered}; physical rows ${stored.physical}, logical ${stored.logical}, duplicates ${stored.physical - stored.logical}, missing ${stored.missing}`))
  })
})
