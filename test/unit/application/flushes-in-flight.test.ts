import { afterEach, describe, expect, it } from 'vitest'
import { sessionEndedHandler } from '../../../src/application/handlers/session-ended.handler.js'
import type { FactRow } from '../../../src/domain/fact-row.js'
import { binaryRecord, sessionEndedPayload } from '../../support/events.js'
import { FAST_CONFIG, Harness, waitUntil } from '../../support/harness.js'

const sessions = sessionEndedHandler()
let h: Harness

afterEach(async () => h?.stopAll())

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('several sealed batches inserting at once (in-memory adapters)', () => {
  it('commits never pass a record whose rows are not stored, and a kill with three inserts in flight loses nothing', async () => {
    h = new Harness([sessions], { ...FAST_CONFIG, flushesInFlight: 3 })
    const stored = new Set<string>()
    let inFlight = 0
    let mostInFlight = 0
    let killed = false
    const ahead: string[] = []
    // Every record below a committed offset must already be stored.
    const checkCommits = () => {
      for (const r of h.broker.records(sessions.topic)) {
        const committed = h.broker.log.committedOffset(sessions.groupId, { topic: r.topic, partition: r.partition })
        if (r.offset < committed && !stored.has(r.headers['ce_id'] as string)) ahead.push(`${r.partition}/${r.offset}`)
      }
    }
    h.sink = {
      append: async (rows: readonly FactRow[], at: number) => {
        mostInFlight = Math.max(mostInFlight, ++inFlight)
        if (inFlight === 3 && !killed) {
          killed = true
          void h.kill(sessions.name) // SIGKILL while three inserts are in flight
        }
        try {
          await sleep(5 + Math.random() * 40) // slow and finishing out of order
          await h.store.append(rows, at)
          for (const f of rows) if (f.table === 'session_facts') stored.add(f.row.factId)
        } finally {
          inFlight--
          checkCommits()
        }
      },
    }
    await h.start()
    h.publish(...Array.from({ length: 3000 }, () => binaryRecord(sessions.topic, sessionEndedPayload())))
    await waitUntil(() => killed, 10_000, 'a kill with three inserts in flight')
    await waitUntil(() => inFlight === 0, 5000, 'the killed inserts ending')
    await h.start(sessions.name)
    await waitUntil(() => h.caughtUp(sessions), 20_000, 'caught up after the restart')
    checkCommits()
    expect(mostInFlight).toBe(3)
    expect(ahead).toEqual([])
    expect(new Set(h.tables.of('session_facts').map((r) => r.fact.row.factId)).size).toBe(3000)
  })
})
