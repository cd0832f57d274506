import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { KAFKA_ADAPTERS, createConsumerTopics, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { ChildConsumer } from './child-consumer.js'
import { crashStore } from './crash-store.js'
import { committedButNotStored, committedOffsets, groupMembers, positionsOf, sumOf } from './group-offsets.js'

// Issue 4, graceful stop: a consumer process gets SIGTERM mid-stream (after it inserted something).
// It must exit 0 promptly, leave the group, and commit nothing ahead of the store; a restarted
// consumer then ingests the rest, every event exactly once logically. Store: the real ClickHouse server.
const EVENTS = 4000
const EXIT_WITHIN_MS = 15_000
const SESSION_TIMEOUT_MS = 6000 // TEST_KAFKA_OPTIONS: a member that did not leave would linger this long

describe.each(KAFKA_ADAPTERS)('SIGTERM on Kafka (%s)', (adapter) => {
  const children: ChildConsumer[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill()
  })

  it(`stops gracefully mid-stream of ${EVENTS} events: exit 0, group left, no commit ahead of the store, nothing lost after restart`, async () => {
    const handler = isolated(sessionEndedHandler, `sigterm-${adapter}`)
    await createConsumerTopics(handler)
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-sigterm-'))
    const store = await crashStore(dir, `sigterm_${adapter}_${handler.groupId.slice(-8)}`)
    const broker = kafkaBroker(adapter)
    const { records, expected } = sessionStream(handler.topic, EVENTS)
    // Small, slow inserts (100 rows, +100 ms each) so that the stream takes seconds and SIGTERM lands inside it.
    const spawnChild = () => {
      const c = new ChildConsumer(adapter, { TOPIC: handler.topic, GROUP: handler.groupId, MAX_BATCH_ROWS: '100', STORE_DELAY_MS: '100', ...store.env })
      children.push(c)
      return c
    }

    try {
      const first = spawnChild()
      await first.ready
      const publishing = (async () => {
        for (let i = 0; i < EVENTS; i += 500) await broker.producer().publish(records.slice(i, i + 500))
      })()
      await eventuallyAsync(async () => (await store.factIds()).length > 0, 60_000, 'the first child inserting')
      await new Promise((r) => setTimeout(r, 200 + Math.random() * 800))
      const termAt = Date.now()
      await first.kill('SIGTERM')
      const exitMs = Date.now() - termAt
      const exit = await first.exited
      const group = await groupMembers(handler.groupId)
      await publishing

      // Graceful: exit 0 in bounded time, and the member is gone from the group at once (not after its session timeout).
      expect(exit).toEqual({ code: 0, signal: null })
      expect(first.output).toContain('stopped:')
      expect(exitMs).toBeLessThan(EXIT_WITHIN_MS)
      expect(group).toEqual({ state: 'Empty', members: 0 })

      // No committed offset ahead of inserted data.
      const positions = await positionsOf(broker, handler.topic, EVENTS)
      expect(positions.size).toBe(EVENTS)
      const committed = await committedOffsets(handler.groupId, handler.topic)
      const storedAtStop = new Set(await store.factIds())
      expect(committedButNotStored(committed, positions, storedAtStop)).toEqual([])
      expect(storedAtStop.size).toBeGreaterThan(0)
      expect(storedAtStop.size).toBeLessThan(EVENTS) // the SIGTERM really was mid-stream

      // The restarted member gets its partitions promptly: nobody is left to wait for.
      const spawnedAt = Date.now()
      const second = spawnChild()
      await second.ready
      const joinMs = Date.now() - spawnedAt
      expect(joinMs).toBeLessThan(SESSION_TIMEOUT_MS)
      await eventuallyAsync(async () => new Set(await store.factIds()).size >= EVENTS && (await lagOf(handler.groupId, handler.topic)) === 0,
        120_000, 'the restarted child caught up')
      await second.kill('SIGTERM')
      expect((await second.exited).code).toBe(0)

      const ids = await store.factIds()
      const distinct = new Set(ids)
      const missing = [...expected].filter((id) => !distinct.has(id))
      const unexpected = [...distinct].filter((id) => !expected.has(id))
      console.info(`[sigterm ${adapter}] events ${EVENTS}; at SIGTERM: committed ${sumOf(committed)}, stored ${storedAtStop.size}; ` +
        `exit ${exit.code} after ${exitMs} ms, group ${group.state}; restart joined in ${joinMs} ms; ` +
        `physical rows ${ids.length}, logical ${distinct.size}, duplicates ${ids.length - distinct.size}, missing ${missing.length}`)
      expect(missing).toEqual([])
      expect(unexpected).toEqual([])
      expect(distinct.size).toBe(EVENTS)
    } finally {
      await broker.close()
      await store.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
