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

// kafkajs's stop while its `run` is still joining does nothing and drops its fetch loop, which
// then consumes on after the disconnect (the member stayed in the group, its sockets kept the
// process up). The fake's run joins when told to, and records what the disconnect met.
describe('kafkajs consumer stopped while it starts', () => {
  const joining = () => {
    const seen = { subscribed: false, ran: false, joined: false, disconnectedWhileJoining: false, disconnected: false }
    let join = () => undefined as void
    let connected = () => undefined as void
    const connect = new Promise<void>((r) => (connected = r))
    const create = (hooks: RebalanceHooks): DriverConsumer => ({
      ...driver(hooks, async () => {
        seen.disconnectedWhileJoining ||= seen.ran && !seen.joined
        seen.disconnected = true
      }),
      connect: () => connect,
      subscribe: async () => void (seen.subscribed = true),
      run: () => {
        seen.ran = true
        return new Promise<void>((r) => (join = () => {
          seen.joined = true
          hooks.assignment.replace([{ topic: 't', partition: 0 }])
          r()
        }))
      },
    })
    return { seen, create, connected: () => connected(), join: () => join() }
  }

  it('disconnects once the client has joined, not during the join', async () => {
    const j = joining()
    const c = new DriverBackedConsumer(j.create, { heartbeatEveryMs: 1000, joinTimeoutMs: 60_000, leaveTimeoutMs: 1000 })
    const running = c.run(['t'], callbacks)
    j.connected()
    await new Promise((r) => setImmediate(r))
    expect(j.seen.ran).toBe(true)
    const stopped = c.stop()
    await new Promise((r) => setTimeout(r, 20))
    j.join()
    await stopped
    await running
    expect(j.seen).toMatchObject({ disconnected: true, disconnectedWhileJoining: false })
  })

  it('does not join at all when stopped while connecting', async () => {
    const j = joining()
    const c = new DriverBackedConsumer(j.create, { heartbeatEveryMs: 1000, joinTimeoutMs: 60_000, leaveTimeoutMs: 1000 })
    const running = c.run(['t'], callbacks)
    const stopped = c.stop()
    j.connected()
    await stopped
    await running
    expect(j.seen).toMatchObject({ subscribed: false, ran: false, disconnected: true })
  })
})
