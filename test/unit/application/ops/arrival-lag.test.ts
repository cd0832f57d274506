import { describe, expect, it } from 'vitest'
import { arrivalLagsOf } from '../../../../src/application/engine/arrival-lag.js'
import type { BrokerRecord } from '../../../../src/application/ports/broker.port.js'
import { sessionEndedHandler } from '../../../../src/application/handlers/session-ended.handler.js'
import { binaryRecord, sessionEndedPayload } from '../../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../../support/harness.js'

const record = (topic: string, timestamp?: number): BrokerRecord => ({
  topic, partition: 0, offset: '0', key: null, value: null, headers: {}, ...(timestamp === undefined ? {} : { timestamp }),
})

describe('arrival lag: Kafka record timestamp to durable effects', () => {
  it('measures source records only, in seconds, never negative', () => {
    const now = 1_000_000
    const settled = [record('src', now - 2500), record('grp.retry', now - 90_000), record('src'), record('src', now + 10)]
    expect(arrivalLagsOf(settled, 'src', now)).toEqual([2.5, 0])
  })

  it('is observed per source record by the engine, whatever the EventTime (a long session)', async () => {
    const sessions = sessionEndedHandler()
    const h = new Harness([sessions], FAST_CONFIG)
    await h.start()
    // A session that started two days ago: its EventTime lag is huge, its arrival lag is not.
    const started = new Date(Date.now() - 2 * 86_400_000).toISOString()
    h.clock.current = Date.now()
    h.publish(...Array.from({ length: 3 }, () => binaryRecord(sessions.topic, sessionEndedPayload({ CreatedAt: started }))))
    await waitUntil(() => h.caughtUp(sessions), 5_000, 'caught up')
    await h.stopAll()
    const text = await h.metrics.registry.metrics()
    expect(text).toMatch(/dev_stats_arrival_lag_seconds_count\{consumer="session-ended"\} 3/)
    expect(text).toMatch(/dev_stats_arrival_lag_seconds_bucket\{le="60",consumer="session-ended"\} 3/)
    // buckets at 0.5 and 2 s: an objective of seconds (p99 arrival-to-stored ≤ 2 s) reads off them
    expect(text).toMatch(/dev_stats_arrival_lag_seconds_bucket\{le="0.5",consumer="session-ended"\} \d/)
    expect(text).toMatch(/dev_stats_arrival_lag_seconds_bucket\{le="2",consumer="session-ended"\} \d/)
    expect(text).toMatch(/dev_stats_ingest_lag_seconds_bucket\{le="3600",consumer="session-ended"\} 0/)
  })
})
