import { createServer, Socket, type Server } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FaultRunner, type Fleet } from '../../../bench/soak/faults.js'
import { WireLinks } from '../../../bench/soak/wire-links.js'
import { freePort } from '../../support/http.js'
import { OwnToxiproxy } from '../../support/toxiproxy.js'

// Issue 47.1: Toxiproxy's API once stopped answering /proxies in the middle of a soak (stuck
// removing a toxic), and the fault runner waited on it for good. Here a real Toxiproxy server is
// SIGSTOPped while a wire fault holds: the runner must restart it, recreate the proxy on the same
// port without toxics, count a harness event and end the fault within a bound.
const BOUND_MS = 2000

const echo = (): Promise<{ server: Server; port: number }> =>
  new Promise((resolve) => {
    const server = createServer((s) => s.pipe(s)).listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }))
  })

/** One round trip through the proxy, in ms; rejects when nothing comes back within `timeoutMs`. */
const roundTrip = (port: number, timeoutMs: number): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = Date.now()
    const s = new Socket()
    const timer = setTimeout(() => (s.destroy(), reject(new Error(`no echo within ${timeoutMs} ms`))), timeoutMs)
    s.once('error', (e) => (clearTimeout(timer), reject(e)))
    s.connect(port, '127.0.0.1', () => s.write('ping'))
    s.once('data', () => (clearTimeout(timer), s.destroy(), resolve(Date.now() - started)))
  })

const noFleet: Fleet = {
  slots: 0,
  current: () => { throw new Error('no instances here') },
  replace: () => undefined,
  make: () => { throw new Error('no instances here') },
}

describe('the soak fault runner against a Toxiproxy whose API hangs', () => {
  let upstream: { server: Server; port: number }
  let toxiproxy: OwnToxiproxy
  beforeAll(async () => {
    upstream = await echo()
    toxiproxy = await OwnToxiproxy.start()
  })
  afterAll(() => {
    toxiproxy?.stop()
    upstream?.server.close()
  })

  it('restarts the server, recreates the proxy on its port without toxics, and ends the fault', async () => {
    const listen = await freePort()
    const lines: string[] = []
    const links = new WireLinks(toxiproxy, new Map([['kafka', { upstream: upstream.port, listen }]]), (l) => lines.push(l), BOUND_MS)
    await links.open()
    const noServers = () => Promise.reject(new Error('no servers here'))
    const runner = new FaultRunner(Date.now(), { wire: links, kafka: noServers, clickhouse: noServers }, noFleet, (l) => lines.push(l))
    runner.schedule([{ kind: 'wire-latency', atMs: 0, holdMs: 3000, instance: 0, toxic: { link: 'kafka', type: 'latency', attributes: { latency: 1500, jitter: 0 } } }])

    await new Promise((r) => setTimeout(r, 1000))
    expect(await roundTrip(listen, 10_000)).toBeGreaterThanOrEqual(1400) // the toxic holds
    const stuck = toxiproxy.pid
    process.kill(stuck, 'SIGSTOP') // the API (and the proxy) stop answering; the removal at 3 s hangs

    const started = Date.now()
    await runner.settle(30_000)
    expect(Date.now() - started).toBeLessThan(20_000)
    expect(runner.errors).toEqual([])
    expect(links.events).toHaveLength(1)
    expect(links.events[0]?.what).toMatch(/did not answer removing wire-latency-0-downstream on kafka within 2 s/)
    expect(lines.join('\n')).toMatch(/harness: Toxiproxy restarted, proxies recreated/)
    expect(toxiproxy.pid).not.toBe(stuck)
    expect(await roundTrip(listen, 5000)).toBeLessThan(1000) // same port, no toxic
    expect(await (await fetch(`http://127.0.0.1:${toxiproxy.apiPort}/proxies/kafka/toxics`)).json()).toEqual([])
  }, 60_000)
})
