import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { KAFKA_ADAPTERS, createConsumerTopics, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { ChildConsumer } from './child-consumer.js'
import { crashStore } from './crash-store.js'
import { committedButNotStored, committedOffsets, positionsOf } from './group-offsets.js'

// Spec §4 at-least-once with several inserts in flight: the child consumer seals batches of 200
// rows into a slow store with three inserts running at once, and SIGKILLs itself the moment the
// third one starts. Whatever it committed must already be stored; a restart completes the rest.
const EVENTS = 4000

describe.each(KAFKA_ADAPTERS)('SIGKILL with several inserts in flight (%s)', (adapter) => {
  const children: ChildConsumer[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill()
  })

  it(`loses nothing and commits nothing ahead of the store when killed with three inserts in flight`, async () => {
    const handler = isolated(sessionEndedHandler, `inflight-${adapter}`)
    await createConsumerTopics(handler, 3)
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-inflight-'))
    const store = await crashStore(dir, `inflight_${adapter}_${handler.groupId.slice(-8)}`)
    const broker = kafkaBroker(adapter)
    const { records, expected } = sessionStream(handler.topic, EVENTS)
    const env = { TOPIC: handler.topic, GROUP: handler.groupId, ...store.env, FLUSHES_IN_FLIGHT: '3', STORE_DELAY_MS: '300' }
    try {
      await broker.producer().publish(records)
      const first = new ChildConsumer(adapter, { ...env, KILL_WITH_INSERTS_IN_FLIGHT: '3' })
      children.push(first)
      const exit = await first.exited
      expect(exit.signal).toBe('SIGKILL')
      expect(first.output).toContain('killing myself with 3 inserts in flight')

      const committed = await committedOffsets(handler.groupId, handler.topic)
      const stored = new Set(await store.factIds())
      const positions = await positionsOf(broker, handler.topic, EVENTS)
      expect(committedButNotStored(committed, positions, stored)).toEqual([])

      const last = new ChildConsumer(adapter, env)
      children.push(last)
      await last.ready
      await eventuallyAsync(async () => {
        const ids = new Set(await store.factIds())
        return ids.size >= EVENTS && (await lagOf(handler.groupId, handler.topic)) === 0
      }, 120_000, 'every event stored and committed after the restart')
      await last.kill('SIGTERM')
      const distinct = new Set(await store.factIds())
      expect([...expected].filter((id) => !distinct.has(id))).toEqual([])
      expect(distinct.size).toBe(EVENTS)
    } finally {
      await broker.close()
      await store.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
