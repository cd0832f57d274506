import { describe, expect, it } from 'vitest'
import { PartsPressure } from '../../../src/application/engine/parts-pressure.js'
import { StopAwareRetry } from '../../../src/application/engine/retry-loop.js'
import { StoreRecovery } from '../../../src/application/engine/store-recovery.js'
import { silentLogger } from '../../../src/adapters/observability/silent-logger.js'

// Issue 66: after an 81 s ClickHouse fault in the wire-fault soak the consumers' backoffs had grown
// to 60 s and nothing was stored for 47–55 s with the store back. The store answering again (a
// parts read after a failed one, or any engine's retried work) now ends every sleeping backoff.
const NO_HOOKS = { failed: () => undefined, settled: () => undefined }
const MINUTE = { initialMs: 60_000, maxMs: 60_000 }

/** Work that fails while `store.away`, and says when it succeeded. */
const storeWork = (store: { away: boolean }) => async () => {
  if (store.away) throw new Error('connect ECONNREFUSED')
  return performance.now()
}

describe('StoreRecovery', () => {
  it('a parts read answered after a failed one wakes a retry sleeping a 60 s backoff', async () => {
    const store = { away: true }
    const recovery = new StoreRecovery()
    const pressure = new PartsPressure({ activePartsPeak: async () => { if (store.away) throw new Error('gone'); return 0 } }, silentLogger, 5000, 1000, () => recovery.answered())
    const retry = new StopAwareRetry(MINUTE, NO_HOOKS, recovery)
    const done = retry.run('insert', storeWork(store))
    await pressure.read() // fails: the store is away
    await new Promise((r) => setTimeout(r, 20))
    store.away = false
    const back = performance.now()
    await pressure.read()
    expect((await done) - back).toBeLessThan(1000)
  })

  it("one engine's retried work succeeding wakes the others", async () => {
    const store = { away: true }
    const recovery = new StoreRecovery()
    const slow = new StopAwareRetry(MINUTE, NO_HOOKS, recovery).run('insert', storeWork(store))
    const quick = new StopAwareRetry({ initialMs: 50, maxMs: 50 }, NO_HOOKS, recovery).run('lookup', storeWork(store))
    await new Promise((r) => setTimeout(r, 20))
    store.away = false
    const back = performance.now()
    expect((await quick) - back).toBeLessThan(1000)
    expect((await slow) - back).toBeLessThan(1000)
  })

  it('a parts read answered after an answered one wakes nothing, and stop() still ends the sleep', async () => {
    let attempts = 0
    const recovery = new StoreRecovery()
    const pressure = new PartsPressure({ activePartsPeak: async () => 0 }, silentLogger, 5000, 1000, () => recovery.answered())
    const retry = new StopAwareRetry(MINUTE, NO_HOOKS, recovery)
    const done = retry.run('insert', async () => {
      attempts++
      throw new Error('TOO_MANY_PARTS')
    }).catch((e: unknown) => e)
    await pressure.read()
    await pressure.read()
    await new Promise((r) => setTimeout(r, 50))
    expect(attempts).toBe(1)
    retry.stop()
    expect(String(await done)).toMatch(/abandoned at shutdown/)
  })
})
