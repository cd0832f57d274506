import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { EMPTY, binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { KAFKA_ADAPTERS } from '../../support/kafka.js'
import { KafkaHarness, eventuallyAsync, isolated } from '../../support/kafka-harness.js'

// Poison flood (issue 4): one record in ten is poison of some kind; each lands in the dead-letter
// topic with its reason, every valid one is ingested, the partitions never stall.
const TOTAL = 3000
const POISONS: readonly [string, () => unknown][] = [
  ['undecodable', () => '{"SessionId": '],
  ['negative-duration', () => sessionEndedPayload({ DurationSeconds: -5 })],
  ['empty-session-id', () => sessionEndedPayload({ SessionId: EMPTY })],
  ['default-created-at', () => sessionEndedPayload({ CreatedAt: '0001-01-01T00:00:00+00:00' })],
  ['created-at-in-future', () => sessionEndedPayload({ CreatedAt: '2026-12-01T12:00:00Z' })],
  ['missing-message-id', () => sessionEndedPayload()],
]

describe.each(KAFKA_ADAPTERS)('poison flood on Kafka (%s)', (adapter) => {
  let h: KafkaHarness
  afterEach(async () => h?.stopAll())

  it(`${TOTAL} records, one in ten poison: every poison in the DLQ with its reason, every valid one ingested`, async () => {
    const sessions = isolated(sessionEndedHandler, `flood-${adapter}`)
    h = new KafkaHarness(adapter, [sessions], { maxBatchRows: 500, flushIntervalMs: 100, sinkBackoff: { initialMs: 20, maxMs: 200 }, parking: { maxAttempts: 3, backoff: { initialMs: 1000, maxMs: 4000 } } })
    await h.start()
    const expectedReasons = new Map<string, string>() // dlq key → reason
    const valid = new Set<string>()
    const records = Array.from({ length: TOTAL }, (_, i) => {
      const key = `flood-${i}`
      if (i % 10 === 3) {
        const [reason, payload] = POISONS[(i / 10) % POISONS.length | 0] as [string, () => unknown]
        expectedReasons.set(key, reason)
        return binaryRecord(sessions.topic, payload(), { key, ...(reason === 'missing-message-id' ? { messageId: null } : {}) })
      }
      const r = binaryRecord(sessions.topic, sessionEndedPayload(), { key })
      valid.add(r.headers['ce_id'] as string)
      return r
    })
    for (let i = 0; i < records.length; i += 500) await h.publish(...records.slice(i, i + 500))
    await eventuallyAsync(() => h.caughtUp(sessions), 120_000, 'caught up')

    const ingested = new Set(h.tables.of('session_facts').map((r) => r.fact.row.factId as string))
    expect([...valid].filter((id) => !ingested.has(id))).toEqual([])
    expect(ingested.size).toBe(valid.size)

    const dlq = await h.dlq(sessions, expectedReasons.size)
    const got = new Map(dlq.map((r) => [new TextDecoder().decode(r.key ?? new Uint8Array()), r.headers['dlq-reason']]))
    expect(dlq).toHaveLength(expectedReasons.size)
    expect(got).toEqual(expectedReasons)
    for (const r of dlq) {
      expect(r.headers).toMatchObject({ 'dlq-source-topic': sessions.topic, 'dlq-consumer-group': sessions.groupId })
      expect(r.headers['dlq-source-offset']).toMatch(/^\d+$/)
    }
    expect(await h.metric('dev_stats_dlq_total')).toBe(expectedReasons.size)
  })
})
