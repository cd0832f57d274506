import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import { FileFactStore } from '../../support/file-fact-store.js'
import { KAFKA_ADAPTERS, createConsumerTopics, kafkaBroker, lagOf, sessionStream } from '../../support/kafka.js'
import { eventuallyAsync, isolated } from '../../support/kafka-harness.js'
import { ChildConsumer } from './child-consumer.js'

// Rebalance (issue 4): two consumer processes in one group; the second joins while the first is
// busy (its partitions are revoked mid-stream), then the first is SIGKILLed; nothing is lost.
const EVENTS = 6000

describe.each(KAFKA_ADAPTERS)('rebalance on Kafka (%s)', (adapter) => {
  const children: ChildConsumer[] = []
  afterEach(async () => {
    for (const c of children.splice(0)) await c.kill()
  })

  it('a member joining mid-stream and a member killed mid-stream lose nothing', async () => {
    const handler = isolated(sessionEndedHandler, `rebalance-${adapter}`)
    await createConsumerTopics(handler)
    const dir = mkdtempSync(join(tmpdir(), 'dev-stats-rebalance-'))
    const broker = kafkaBroker(adapter)
    const producer = broker.producer()
    const { records, expected } = sessionStream(handler.topic, EVENTS)
    const files = [join(dir, 'a.jsonl'), join(dir, 'b.jsonl')]
    const member = (file: string) => {
      const c = new ChildConsumer(adapter, { TOPIC: handler.topic, GROUP: handler.groupId, STORE_FILE: file, MAX_BATCH_ROWS: '100', STORE_DELAY_MS: '100' })
      children.push(c)
      return c
    }
    const factIds = () => files.flatMap((f) => FileFactStore.read(f)).map((r) => (r.fact.row as { factId: string }).factId)

    try {
      const a = member(files[0] as string)
      await a.ready
      const firstHalf = producer.publish(records.slice(0, EVENTS / 2))
      const b = member(files[1] as string)
      await b.ready
      await firstHalf
      const secondHalf = producer.publish(records.slice(EVENTS / 2))
      await new Promise((r) => setTimeout(r, 300 + Math.random() * 700))
      await a.kill('SIGKILL')
      await secondHalf
      await eventuallyAsync(async () => new Set(factIds()).size >= EVENTS && (await lagOf(handler.groupId, handler.topic)) === 0,
        120_000, 'the surviving member caught up')
      await b.kill('SIGTERM')
      const ids = factIds()
      const distinct = new Set(ids)
      const missing = [...expected].filter((id) => !distinct.has(id))
      console.info(`[rebalance ${adapter}] events ${EVENTS}: member A stored ${FileFactStore.read(files[0] as string).length}, ` +
        `member B ${FileFactStore.read(files[1] as string).length}, duplicates ${ids.length - distinct.size}, missing ${missing.length}`)
      expect(missing).toEqual([])
      expect(distinct.size).toBe(EVENTS)
      expect(FileFactStore.read(files[1] as string).length).toBeGreaterThan(0)
    } finally {
      await broker.close()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
