import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { StoreError } from '../../../src/application/ports/store-error.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { Harness, waitUntil } from '../../support/harness.js'

const sessions = sessionEndedHandler()
let h: Harness

afterEach(async () => h?.stopAll())

describe('engine stats for health: lastCommitAt, retryingSince, lastFailure', () => {
  it('a healthy flush sets lastCommitAt to the clock and leaves the failure fields empty', async () => {
    h = new Harness([sessions])
    await h.start()
    const stats = h.engine(sessions.name).stats
    expect(stats.lastCommitAt).toBeUndefined()
    h.publish(binaryRecord(sessions.topic, sessionEndedPayload()))
    await waitUntil(() => h.caughtUp(sessions), 5000, 'commit')
    expect(stats.lastCommitAt).toBe(h.clock.now())
    expect(stats.retryingSince).toBeUndefined()
    expect(stats.lastFailure).toBeUndefined()
  })

  it('a store outage sets retryingSince at the first failure and lastFailure; recovery clears retryingSince only', async () => {
    h = new Harness([sessions])
    await h.start()
    const stats = h.engine(sessions.name).stats
    h.store.down = true
    const outageStart = h.clock.now()
    h.publish(binaryRecord(sessions.topic, sessionEndedPayload()))
    await waitUntil(() => stats.sinkRetries >= 1, 5000, 'first failure')
    h.clock.advance(30_000)
    await waitUntil(() => stats.sinkRetries >= 3, 5000, 'more failures')
    expect(stats.retryingSince).toBe(outageStart)
    expect(stats.lastFailure).toEqual({ what: 'insert', message: 'in-memory store is down', retriable: true })
    expect(stats.lastCommitAt).toBeUndefined()
    h.store.down = false
    await waitUntil(() => h.caughtUp(sessions), 5000, 'recovered')
    expect(stats.retryingSince).toBeUndefined()
    expect(stats.lastCommitAt).toBe(outageStart + 30_000)
    expect(stats.lastFailure?.what).toBe('insert')
  })

  it('lastFailure carries the retriable flag of the error contract; a refused row is not a retry', async () => {
    h = new Harness([sessions])
    h.sink = {
      append: async () => {
        throw new StoreError('Code: 72, bad number', false, 'CLICKHOUSE_72')
      },
    }
    await h.start()
    h.publish(binaryRecord(sessions.topic, sessionEndedPayload()))
    await waitUntil(() => h.caughtUp(sessions), 5000, 'caught up')
    const stats = h.engine(sessions.name).stats
    expect(stats.lastFailure).toEqual({ what: 'insert', message: 'Code: 72, bad number', retriable: false })
    expect([stats.retryingSince, stats.sinkRetries]).toEqual([undefined, 0])
  })

  it('a failed dead-letter publish is reported as a publish failure', async () => {
    h = new Harness([sessions])
    await h.start()
    h.publish(binaryRecord(sessions.topic, sessionEndedPayload({ DurationSeconds: -5 })))
    h.broker.failNextPublishes = 1
    await waitUntil(() => h.dlq(sessions).length === 1 && h.caughtUp(sessions), 5000, 'dead letter')
    const stats = h.engine(sessions.name).stats
    expect(stats.lastFailure).toEqual({ what: 'publish', message: 'in-memory broker refused the publish', retriable: true })
    expect(stats.retryingSince).toBeUndefined()
  })
})
