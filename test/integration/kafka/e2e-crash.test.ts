import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { KAFKA_ADAPTERS, createConsumerTopics, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { ChildConsumer } from './child-consumer.js'
import { crashStore } from './crash-store.js'

// Spec §4 at-least-once under SIGKILL: 10,000 session-ended events while the consumer process is
// killed at random points and once exactly between a confirmed insert and its commit. The store is
// the real ClickHouse server (DEV_STATS_CRASH_STORE=file: a durable JSON-lines file instead).
const EVENTS = 10_000
const WAVES = 10
const RANDOM_KILLS = 4

const randomBetween = (min: number, max: number) => min + Math.floor(Math.random() * (max - min))
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe.each(KAFKA_ADAPTERS)('crash safety on Kafka (%s)', (adapter) => {
  const children: ChildConsumer[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill()
  })

  it(`ingests ${EVENTS} events exactly once logically through ${RANDOM_KILLS} random SIGKILLs and one between insert and commit`, async () => {
    const handler = isolated(sessionEndedHandler, `crash-${adapter}`)
    await createConsumerTopics(handler)
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-crash-'))
    const store = await crashStore(dir, `crash_${adapter}_${handler.groupId.slice(-8)}`)
    const broker = kafkaBroker(adapter)
    const producer = broker.producer()
    const { records, expected } = sessionStream(handler.topic, EVENTS)
    const waveSize = EVENTS / WAVES
    let published = 0
    const publishWave = async () => {
      if (published >= EVENTS) return
      await producer.publish(records.slice(published, published + waveSize))
      published += waveSize
    }
    const spawnChild = (extra: Record<string, string> = {}) => {
      const c = new ChildConsumer(adapter, { TOPIC: handler.topic, GROUP: handler.groupId, ...store.env, ...extra })
      children.push(c)
      return c
    }
    const kills: string[] = []
    let proof = ''

    try {
      // Random kills: each child gets new waves while it runs and dies at an arbitrary moment.
      const plan = ['random', 'random', 'after-insert', 'random', 'random'] as const
      for (const kind of plan) {
        const child = spawnChild(kind === 'after-insert' ? { KILL_AFTER_INSERT: '1' } : {})
        const before = (await store.factIds()).length
        await child.ready
        // Publishing goes on while the child consumes; the kill lands at an arbitrary moment of it.
        const publishing = publishWave().then(publishWave)
        if (kind === 'after-insert') {
          const exit = await child.exited
          expect(exit.signal).toBe('SIGKILL')
          expect(child.output).toContain('killing myself after an insert')
          await publishing
          // The proof that the kill fell between insert and commit: the store is ahead of the group's offsets.
          const committed = published - (await lagOf(handler.groupId, handler.topic))
          const stored = new Set(await store.factIds()).size
          expect(stored).toBeGreaterThan(committed)
          proof = `stored ${stored} > committed ${committed} after the between-insert-and-commit kill`
        } else {
          // Mid-ingest: once this child has inserted something, at a random moment after that.
          await eventuallyAsync(async () => (await store.factIds()).length > before, 60_000, 'the child inserting')
          await sleep(randomBetween(0, 700))
          await child.kill('SIGKILL')
        }
        await publishing
        kills.push(`${kind} (rows so far ${(await store.factIds()).length})`)
      }
      while (published < EVENTS) await publishWave()

      // The last restart runs to the end and stops gracefully.
      const last = spawnChild()
      await last.ready
      await eventuallyAsync(async () => {
        const ids = new Set(await store.factIds())
        return ids.size >= expected.size && (await lagOf(handler.groupId, handler.topic)) === 0
      }, 180_000, 'every event stored and committed')
      await last.kill('SIGTERM')

      const ids = await store.factIds()
      const distinct = new Set(ids)
      const missing = [...expected].filter((id) => !distinct.has(id))
      const unexpected = [...distinct].filter((id) => !expected.has(id))
      console.info(`[crash ${adapter}, store ${store.kind}] events ${EVENTS}, kills ${kills.length}: ${kills.join('; ')}; ${proof}; ` +
        `physical rows ${ids.length}, logical ${distinct.size}, redelivered duplicates ${ids.length - distinct.size}, missing ${missing.length}`)
      expect(missing).toEqual([])
      expect(unexpected).toEqual([])
      expect(distinct.size).toBe(EVENTS)
      expect(await lagOf(handler.groupId, handler.topic)).toBe(0)
    } finally {
      await broker.close()
      await store.dispose()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
