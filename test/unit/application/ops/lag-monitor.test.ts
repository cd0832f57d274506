import { describe, expect, it } from 'vitest'
import { InMemoryBroker } from '../../../../src/adapters/memory/in-memory-broker.js'
import { InMemoryLagReader } from '../../../../src/adapters/memory/in-memory-lag-reader.js'
import { LagMonitor } from '../../../../src/application/ops/lag-monitor.js'
import type { ConsumerLagReader } from '../../../../src/application/ports/consumer-lag.port.js'
import { RecordingLogger } from '../../../support/recording-logger.js'

const record = (topic: string, key: string) => ({ topic, key: new TextEncoder().encode(key), value: null, headers: {} })

describe('consumer lag monitor over the in-memory broker', () => {
  it('reports end minus committed per partition of every topic of the consumer', async () => {
    const broker = new InMemoryBroker()
    broker.createTopic('src', 2)
    broker.createTopic('grp.retry', 1)
    await broker.producer().publish(['a', 'b', 'c', 'd', 'e', 'f'].map((k) => record('src', k)))
    const ends = broker.log.endOffsets('src')
    broker.log.commit('grp', [{ topic: 'src', partition: 0, offset: String(ends[0]) }])
    const monitor = new LagMonitor(new InMemoryLagReader(broker.log), [{ name: 'c', groupId: 'grp', topics: ['src', 'grp.retry'] }], new RecordingLogger(), 60_000)
    await monitor.refresh()
    expect(monitor.lagOf('c')).toEqual([
      { topic: 'src', partition: 0, end: ends[0], committed: ends[0], lag: 0 },
      { topic: 'src', partition: 1, end: ends[1], committed: 0, lag: ends[1] },
      { topic: 'grp.retry', partition: 0, end: 0, committed: 0, lag: 0 },
    ])
    expect(monitor.lagOf('unknown')).toEqual([])
  })

  it('keeps the last figures and warns when the broker does not answer', async () => {
    let fail = false
    const reader: ConsumerLagReader = {
      lagOf: async () => {
        if (fail) throw new Error('broker down')
        return [{ topic: 't', partition: 0, end: 5, committed: 2, lag: 3 }]
      },
      close: async () => undefined,
    }
    const logger = new RecordingLogger()
    const monitor = new LagMonitor(reader, [{ name: 'c', groupId: 'g', topics: ['t'] }], logger, 60_000)
    await monitor.refresh()
    fail = true
    await monitor.refresh()
    expect(monitor.lagOf('c')).toEqual([{ topic: 't', partition: 0, end: 5, committed: 2, lag: 3 }])
    expect(logger.at('warn')).toEqual([{ level: 'warn', message: 'consumer lag not refreshed', fields: { consumer: 'c', err: 'Error: broker down' } }])
  })

  // Issue 36.3: on a silent broker each read waits for the client's request timeout; a SIGTERM
  // waited for the whole pass (one read per consumer) before the process could exit.
  it('stops within its wait when a read never answers, and starts no further read', async () => {
    let reads = 0
    const reader: ConsumerLagReader = { lagOf: () => (reads++, new Promise(() => undefined)), close: () => new Promise(() => undefined) }
    const consumers = ['a', 'b', 'c'].map((name) => ({ name, groupId: name, topics: ['t'] }))
    const monitor = new LagMonitor(reader, consumers, new RecordingLogger(), 60_000, undefined, 50)
    void monitor.refresh()
    const at = performance.now()
    await monitor.stop()
    expect(performance.now() - at).toBeLessThan(1000)
    await monitor.refresh()
    expect(reads).toBe(1)
  })
})
