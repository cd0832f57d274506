import { describe, expect, it } from 'vitest'
import { DriverBackedConsumer, type DriverConsumer, type RebalanceHooks } from '../../../../src/adapters/kafka/kafkajs/driver-consumer.js'

// Issue 36.3: with the broker silent (a half-open connection) kafkajs's disconnect did not end
// for minutes, and neither did SIGTERM. stop() gives the leave a bounded time.
const driver = (hooks: RebalanceHooks, disconnect: () => Promise<void>): DriverConsumer => ({
  connect: async () => undefined,
  subscribe: async () => undefined,
  run: async () => void setImmediate(() => {
    hooks.assignment.replace([{ topic: 't', partition: 0 }])
    hooks.assigned()
  }),
  commitOffsets: async () => undefined,
  pause: () => undefined,
  resume: () => undefined,
  disconnect,
})
const callbacks = { onBatch: async () => undefined, onRevoked: async () => undefined }

describe('kafkajs consumer stop', () => {
  it('gives up leaving after leaveTimeoutMs when the disconnect never answers', async () => {
    let asked = 0
    const c = new DriverBackedConsumer((hooks) => driver(hooks, () => {
      asked++
      return new Promise<void>(() => undefined)
    }), { heartbeatEveryMs: 1000, joinTimeoutMs: 1000, leaveTimeoutMs: 100 })
    await c.run(['t'], callbacks)
    const at = performance.now()
    await c.stop()
    expect(asked).toBe(1)
    expect(performance.now() - at).toBeGreaterThanOrEqual(90)
    expect(performance.now() - at).toBeLessThan(1000)
  })

  it('waits for a disconnect that answers in time', async () => {
    let left = false
    const c = new DriverBackedConsumer((hooks) => driver(hooks, async () => {
      await new Promise((r) => setTimeout(r, 30))
      left = true
    }), { heartbeatEveryMs: 1000, joinTimeoutMs: 1000, leaveTimeoutMs: 1000 })
    await c.run(['t'], callbacks)
    await c.stop()
    expect(left).toBe(true)
  })
})
