import { describe, expect, it } from 'vitest'
import type { ConsumerHealth } from '../../../../src/application/ops/consumer-health.js'
import { secondsSinceCommit } from '../../../../src/application/ops/consumer-health.js'
import { readiness, type StoreCheck } from '../../../../src/application/ops/readiness.js'

const NOW = 1_700_000_000_000
const OK: StoreCheck = { ok: true }
const joined = (o: Partial<ConsumerHealth> = {}): ConsumerHealth => ({ name: 'session-ended', joinedAt: NOW - 60_000, parkedInMemory: 0, ...o })
const check = (consumers: ConsumerHealth[], store: StoreCheck = OK) => readiness({ now: NOW, consumers, store, maxRetryMs: 120_000 })

describe('readiness', () => {
  it('is ready when every consumer joined, none is retrying and the store answers', () => {
    expect(check([joined(), joined({ name: 'funnel-favorites' })])).toEqual({ ready: true, reasons: [] })
  })

  it('is not ready while a consumer has not joined its group', () => {
    expect(check([joined(), joined({ name: 'funnel-crm-deal', joinedAt: undefined })])).toEqual({
      ready: false, reasons: ['funnel-crm-deal: has not joined its consumer group'],
    })
  })

  it('tolerates a retry up to the threshold and not beyond', () => {
    const failure = { what: 'insert', message: 'ECONNREFUSED 127.0.0.1:18123', retriable: true }
    expect(check([joined({ retryingSince: NOW - 120_000, lastFailure: failure })]).ready).toBe(true)
    expect(check([joined({ retryingSince: NOW - 121_000, lastFailure: failure })])).toEqual({
      ready: false, reasons: ['session-ended: insert has been failing for 121 s: ECONNREFUSED 127.0.0.1:18123'],
    })
  })

  it('ignores a past failure once the engine recovered', () => {
    expect(check([joined({ lastFailure: { what: 'insert', message: 'down', retriable: true } })]).ready).toBe(true)
  })

  it('is not ready at once when a publish fails because a topic vanished (kafkajs and librdkafka wording)', () => {
    for (const message of ['publish: This server does not host this topic-partition', 'publish: Broker: Unknown topic or partition']) {
      const c = joined({ name: 'funnel-favorites', retryingSince: NOW - 1000, lastFailure: { what: 'publish', message, retriable: true } })
      expect(check([c])).toEqual({ ready: false, reasons: [`funnel-favorites: publish fails, a topic is missing: ${message}`] })
    }
  })

  it('is not ready while the store does not answer, and lists every cause', () => {
    expect(check([joined({ joinedAt: undefined })], { ok: false, error: 'connect ECONNREFUSED' })).toEqual({
      ready: false, reasons: ['session-ended: has not joined its consumer group', 'store: connect ECONNREFUSED'],
    })
  })
})

describe('seconds since the last commit', () => {
  it('counts from the last commit, from the join before the first one, and is unknown before joining', () => {
    expect(secondsSinceCommit(joined({ lastCommitAt: NOW - 1500 }), NOW)).toBe(1.5)
    expect(secondsSinceCommit(joined(), NOW)).toBe(60)
    expect(secondsSinceCommit(joined({ joinedAt: undefined }), NOW)).toBeUndefined()
  })
})
