import type { Consumer } from 'kafkajs'
import { describe, expect, it } from 'vitest'
import { Assignment } from '../../../../src/adapters/kafka/shared/assignment.js'
import { kafkaJsDriverConsumer } from '../../../../src/adapters/kafka/kafkajs/kafkajs-driver-consumer.js'

// kafkajs restarts a consumer after a retriable crash: a new join, then a new fetch loop. Its
// stop during that join does nothing and forgets the loop, which consumes on after the disconnect.
const fakeKafkaJs = () => {
  const listeners = new Map<string, ((e: { payload: unknown }) => void)[]>()
  const state = { disconnects: 0, restartOnFailure: undefined as undefined | ((e: Error) => Promise<boolean>) }
  const consumer = {
    events: { GROUP_JOIN: 'join', CRASH: 'crash' },
    on: (name: string, l: (e: { payload: unknown }) => void) => void listeners.set(name, [...(listeners.get(name) ?? []), l]),
    disconnect: async () => void state.disconnects++,
  }
  const emit = (name: string, payload: unknown) => listeners.get(name)?.forEach((l) => l({ payload }))
  const create = (restartOnFailure: (e: Error) => Promise<boolean>) => {
    state.restartOnFailure = restartOnFailure
    return consumer as unknown as Consumer
  }
  return { state, emit, create }
}
const hooksWith = (fatal: unknown[]) => ({
  assignment: new Assignment(),
  revoked: async () => undefined,
  assigned: () => undefined,
  fatal: (e: unknown) => void fatal.push(e),
})
const tick = () => new Promise((r) => setTimeout(r, 5))

describe('kafkajs driver consumer', () => {
  it('disconnects after a restart in progress has joined, not during its join', async () => {
    const k = fakeKafkaJs()
    const driver = kafkaJsDriverConsumer(k.create, hooksWith([]), () => undefined)
    k.emit('crash', { restart: true, error: new Error('coordinator') })
    const disconnected = driver.disconnect()
    await tick()
    expect(k.state.disconnects).toBe(0)
    k.emit('join', { memberAssignment: { t: [0] } })
    await disconnected
    expect(k.state.disconnects).toBe(1)
  })

  it('is not restarted by kafkajs, nor rejoined, once disconnecting', async () => {
    const k = fakeKafkaJs()
    const fatal: unknown[] = []
    const driver = kafkaJsDriverConsumer(k.create, hooksWith(fatal), () => undefined)
    expect(await k.state.restartOnFailure?.(new Error('x'))).toBe(true)
    k.emit('crash', { restart: true, error: new Error('coordinator') })
    const disconnected = driver.disconnect()
    expect(await k.state.restartOnFailure?.(new Error('x'))).toBe(false)
    k.emit('crash', { restart: false, error: new Error('coordinator') })
    await disconnected
    expect(k.state.disconnects).toBe(1)
    expect(fatal).toEqual([])
  })

  it('reports a crash kafkajs will not restart while running', () => {
    const k = fakeKafkaJs()
    const fatal: unknown[] = []
    kafkaJsDriverConsumer(k.create, hooksWith(fatal), () => undefined)
    k.emit('crash', { restart: false, error: new Error('gave up') })
    expect(fatal).toHaveLength(1)
  })
})
