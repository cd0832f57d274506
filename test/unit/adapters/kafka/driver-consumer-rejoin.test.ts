import { describe, expect, it } from 'vitest'
import { DriverBackedConsumer, type DriverConsumer, type RebalanceHooks } from '../../../../src/adapters/kafka/kafkajs/driver-consumer.js'

// Found by the soak (issue 20): after a broker restart kafkajs crashed some consumers with
// "Failed to find group coordinator" and did not restart them; the process lived on and the
// groups stayed empty (lag frozen). A client that gives up after the first join is built again.
const fakeDrivers = () => {
  const made: { hooks: RebalanceHooks; disconnected: boolean; failConnect: boolean }[] = []
  let failNext = 0
  const create = (hooks: RebalanceHooks): DriverConsumer => {
    const d = { hooks, disconnected: false, failConnect: failNext > 0 }
    if (failNext > 0) failNext--
    made.push(d)
    return {
      connect: async () => {
        if (d.failConnect) throw new Error('ECONNREFUSED')
      },
      subscribe: async () => undefined,
      run: async () => void setImmediate(() => {
        hooks.assignment.replace([{ topic: 't', partition: 0 }])
        hooks.assigned()
      }),
      commitOffsets: async () => undefined,
      pause: () => undefined,
      resume: () => undefined,
      disconnect: async () => void (d.disconnected = true),
    }
  }
  return { made, create, failConnects: (n: number) => void (failNext = n) }
}
const callbacks = { onBatch: async () => undefined, onRevoked: async () => undefined }
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 5))
  expect(check()).toBe(true)
}

describe('kafkajs consumer that the client gave up on', () => {
  it('is built again and rejoins, the old one disconnected, retrying while the broker is away', async () => {
    const f = fakeDrivers()
    const c = new DriverBackedConsumer(f.create, { heartbeatEveryMs: 1000, joinTimeoutMs: 1000, rejoinBackoffMs: 1 })
    await c.run(['t'], callbacks)
    f.failConnects(2)
    f.made[0]?.hooks.fatal(new Error('KafkaJSGroupCoordinatorNotFound: Failed to find group coordinator'))
    await until(() => c.rejoins === 1)
    expect(f.made).toHaveLength(4) // two attempts refused, the third joined
    expect(f.made[0]?.disconnected).toBe(true)
    await c.stop()
    expect(f.made.at(-1)?.disconnected).toBe(true)
  })

  it('still fails the start when the client gives up before the first join', async () => {
    const f = fakeDrivers()
    const create = (hooks: RebalanceHooks): DriverConsumer => ({
      ...f.create(hooks),
      run: async () => void setImmediate(() => hooks.fatal(new Error('gave up'))),
    })
    const c = new DriverBackedConsumer(create, { heartbeatEveryMs: 1000, joinTimeoutMs: 1000, rejoinBackoffMs: 1 })
    await expect(c.run(['t'], callbacks)).rejects.toThrow(/gave up/)
  })

  it('does not rejoin once stopping', async () => {
    const f = fakeDrivers()
    const c = new DriverBackedConsumer(f.create, { heartbeatEveryMs: 1000, joinTimeoutMs: 1000, rejoinBackoffMs: 50 })
    await c.run(['t'], callbacks)
    f.made[0]?.hooks.fatal(new Error('Failed to find group coordinator'))
    await c.stop()
    await new Promise((r) => setTimeout(r, 100))
    expect(f.made).toHaveLength(1)
    expect(c.rejoins).toBe(0)
  })
})
