import { describe, expect, it } from 'vitest'
import { replayDeadLetters, replayGroupOf, type ReplayProgress } from '../../../../src/application/dlq/replay-dead-letters.js'
import { showDeadLetters } from '../../../../src/application/dlq/show-dead-letters.js'
import { summarizeDeadLetters } from '../../../../src/application/dlq/summarize-dead-letters.js'
import type { OutboundRecord } from '../../../../src/application/ports/broker.port.js'
import { InMemoryBroker } from '../../../../src/adapters/memory/in-memory-broker.js'

const SOURCE = 'pin.favorites.favorite-added.v1'
const DLQ = `${SOURCE}.dlq`
const bytes = (s: string) => new TextEncoder().encode(s)

const deadLetter = (n: number, reason: string, failedAt: string): OutboundRecord => ({
  topic: DLQ,
  key: bytes(`key-${n}`),
  value: bytes(`{"FavoriteId":"${n}"}`),
  headers: {
    ce_id: `m-${n}`, ce_type: 'favorite-added', 'dlq-reason': reason, 'dlq-detail': 'why', 'dlq-source-topic': SOURCE,
    'dlq-source-partition': '0', 'dlq-source-offset': String(n), 'dlq-consumer-group': 'dev-stats-funnel-favorites', 'dlq-failed-at': failedAt,
  },
})

const silent: ReplayProgress = { started: () => undefined, advanced: () => undefined, finished: () => undefined }

/** 10 dimension-gap letters (the first 5 on Nov 29, the rest on Nov 30) and 3 undecodable ones, over 2 partitions. */
const brokerWithLetters = () => {
  const broker = new InMemoryBroker(2) // small polls: a replay goes batch by batch
  broker.createTopic(SOURCE, 1)
  broker.createTopic(DLQ, 2)
  const letters = [
    ...Array.from({ length: 10 }, (_, i) => deadLetter(i, 'dimension-gap', i < 5 ? '2026-11-29T10:00:00.000Z' : '2026-11-30T10:00:00.000Z')),
    ...Array.from({ length: 3 }, (_, i) => deadLetter(100 + i, 'undecodable', '2026-11-30T11:00:00.000Z')),
  ]
  void broker.producer().publish(letters)
  return broker
}

const ids = (broker: InMemoryBroker) => broker.records(SOURCE).map((r) => r.headers['ce_id']).sort()

describe('dead-letter tool on the in-memory broker', () => {
  it('summary: per source topic and reason, oldest and newest', async () => {
    const broker = brokerWithLetters()
    expect(await summarizeDeadLetters(broker, 'inspect-1')([SOURCE])).toEqual([
      { sourceTopic: SOURCE, reason: 'dimension-gap', count: 10, oldest: Date.parse('2026-11-29T10:00:00Z'), newest: Date.parse('2026-11-30T10:00:00Z') },
      { sourceTopic: SOURCE, reason: 'undecodable', count: 3, oldest: Date.parse('2026-11-30T11:00:00Z'), newest: Date.parse('2026-11-30T11:00:00Z') },
    ])
    expect(await broker.committedOffsets('inspect-1', DLQ)).toEqual(new Map())
  })

  it('show: filtered by reason, at most --limit', async () => {
    const found = await showDeadLetters(brokerWithLetters(), 'inspect-2')(SOURCE, { reason: 'undecodable' }, 2)
    expect(found.map((d) => [d.reason, d.sourceTopic])).toEqual([['undecodable', SOURCE], ['undecodable', SOURCE]])
  })

  it('replay: original key, value and headers without dlq-*, only the matching ones; again: nothing', async () => {
    const broker = brokerWithLetters()
    const replay = replayDeadLetters(broker, silent, 'inspect-3')
    const first = await replay({ sourceTopic: SOURCE, filter: { reason: 'dimension-gap', since: Date.parse('2026-11-30T00:00:00Z') }, dryRun: false })
    expect(first).toMatchObject({ read: 13, matched: 5, replayed: 5 })
    expect(ids(broker)).toEqual(['m-5', 'm-6', 'm-7', 'm-8', 'm-9'])
    const sample = broker.records(SOURCE).find((r) => r.headers['ce_id'] === 'm-7')
    expect(sample && { key: new TextDecoder().decode(sample.key ?? undefined), value: new TextDecoder().decode(sample.value ?? undefined), headers: sample.headers })
      .toEqual({ key: 'key-7', value: '{"FavoriteId":"7"}', headers: { ce_id: 'm-7', ce_type: 'favorite-added' } })
    const again = await replay({ sourceTopic: SOURCE, filter: { reason: 'dimension-gap', since: Date.parse('2026-11-30T00:00:00Z') }, dryRun: false })
    expect(again).toMatchObject({ read: 0, replayed: 0 })
    expect(broker.records(SOURCE)).toHaveLength(5)
  })

  it('dry run: counts, publishes and commits nothing', async () => {
    const broker = brokerWithLetters()
    const r = await replayDeadLetters(broker, silent, 'inspect-4')({ sourceTopic: SOURCE, filter: { reason: 'undecodable' }, dryRun: true })
    expect(r).toMatchObject({ read: 13, matched: 3, replayed: 0 })
    expect(broker.records(SOURCE)).toHaveLength(0)
    expect(await broker.committedOffsets(replayGroupOf(SOURCE, { reason: 'undecodable' }), DLQ)).toEqual(new Map())
  })

  it('an interrupted replay resumes where it stopped and publishes every letter once', async () => {
    const broker = brokerWithLetters()
    let batches = 0
    const failing: ReplayProgress = { ...silent, advanced: () => void (++batches === 2 && (broker.failNextPublishes = 1)) }
    const filter = { reason: 'dimension-gap' }
    await expect(replayDeadLetters(broker, failing, 'inspect-5')({ sourceTopic: SOURCE, filter, dryRun: false })).rejects.toThrow(/refused/)
    const before = broker.records(SOURCE).length
    expect(before).toBeGreaterThan(0)
    expect(before).toBeLessThan(10)
    const rest = await replayDeadLetters(broker, silent, 'inspect-6')({ sourceTopic: SOURCE, filter, dryRun: false })
    expect(rest.replayed).toBe(10 - before)
    expect(ids(broker)).toEqual(Array.from({ length: 10 }, (_, i) => `m-${i}`).sort())
  })

  it('the replay group names the topic and the filter', () => {
    expect(replayGroupOf(SOURCE, {})).toBe(`dev-stats-dlq-replay.${SOURCE}.all`)
    expect(replayGroupOf(SOURCE, { reason: 'dimension-gap', since: 5 })).toBe(`dev-stats-dlq-replay.${SOURCE}.dimension-gap.5-`)
  })
})
