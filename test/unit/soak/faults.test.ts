import { describe, expect, it } from 'vitest'
import { FaultRunner, type Fleet } from '../../../bench/soak/faults.js'
import type { Fault } from '../../../bench/soak/schedule.js'

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))

/** Servers whose stop and start take a while, recording what was asked of them in order. */
const slowServers = () => {
  const calls: string[] = []
  const act = (server: string) => async (action: 'start' | 'stop') => {
    calls.push(`${server} ${action} begins`)
    await sleep(30)
    calls.push(`${server} ${action} ends`)
  }
  return { calls, infra: { kafka: act('kafka'), clickhouse: act('clickhouse'), wire: undefined as never } }
}

const noFleet: Fleet = {
  current: () => {
    throw new Error('no instance fault here')
  },
  replace: () => undefined,
  make: () => {
    throw new Error('no instance fault here')
  },
  slots: 1,
}

const fault = (kind: Fault['kind'], atMs: number): Fault => ({ kind, atMs, holdMs: kind === 'clickhouse-stop' ? 10 : 0, instance: 0 })

describe('soak fault runner', () => {
  it('restarts the broker and stops ClickHouse one fault at a time when their faults overlap', async () => {
    const { calls, infra } = slowServers()
    const runner = new FaultRunner(Date.now(), infra, noFleet, () => undefined)
    runner.schedule([fault('broker-restart', 0), fault('broker-restart', 5), fault('clickhouse-stop', 0), fault('clickhouse-stop', 5)])
    await sleep(20)
    await runner.settle(5_000)

    expect(runner.errors).toEqual([])
    for (const server of ['kafka', 'clickhouse']) {
      expect(calls.filter((c) => c.startsWith(server))).toEqual([
        `${server} stop begins`, `${server} stop ends`, `${server} start begins`, `${server} start ends`,
        `${server} stop begins`, `${server} stop ends`, `${server} start begins`, `${server} start ends`,
      ])
    }
    expect(runner.spans.map((s) => s.label).sort()).toEqual(['broker-restart', 'broker-restart', 'clickhouse-stop 0.01 s', 'clickhouse-stop 0.01 s'])
  })
})
