import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventuallyAsync } from '../../support/kafka-harness.js'
import { NpmStart } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'
import { OwnToxiproxy, type WireProxy } from '../../support/toxiproxy.js'
import { clickhousePort, proxiedDeployment, type ProxiedDeployment } from './proxied-service.js'

// Issue 64, item 3: under `start --workers 2`, ClickHouse goes away (every connection through the
// proxy reset) and a worker dies; its restart gives up at start-up (DEV_STATS_STARTUP_TIMEOUT_SECONDS
// shortened to 2 s) and exits 1 before consuming. That is no bad first start: the primary restarts
// it with the backoff, the other worker runs on, and once ClickHouse is back the restarted worker
// consumes again. SIGTERM then stops both: exit 0.
const logLines = (output: string, msg: RegExp): Record<string, unknown>[] =>
  output.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, unknown>).filter((e) => msg.test(String(e['msg'])))

describe('npm start -- --workers 2 through a ClickHouse outage', () => {
  let toxiproxy: OwnToxiproxy
  let proxy: WireProxy
  let d: ProxiedDeployment
  beforeAll(async () => {
    toxiproxy = await OwnToxiproxy.start()
    proxy = await toxiproxy.proxy('workers-clickhouse', clickhousePort())
    d = await proxiedDeployment('kafkajs', 'workers-outage', proxy, { DEV_STATS_STARTUP_TIMEOUT_SECONDS: '2' })
  })
  afterAll(async () => {
    toxiproxy?.stop()
    if (d) {
      await d.direct.close()
      await removeRunResources(d.topics, [d.database])
    }
  })

  it('a restarted worker that cannot reach the store at start-up is restarted again, the other runs on, both consume once it is back', async () => {
    const service = new NpmStart(d.env, ['--workers', '2'])
    const consuming = (worker: number) => logLines(service.output, /^consuming from/).filter((e) => e['worker'] === worker).length
    try {
      await eventuallyAsync(() => (consuming(1) === 1 && consuming(2) === 1) || service.output.includes('dev-stats ingest:'), 120_000, `both workers consuming:\n${service.output}`)
      // logged by the primary: its own pid and the worker's
      const [first] = logLines(service.output, /^worker 2 forked$/)

      await proxy.add({ name: 'outage', type: 'reset_peer', stream: 'downstream', attributes: { timeout: 0 } })
      process.kill(first?.['workerPid'] as number, 'SIGKILL')
      // the restarted worker 2 tries the store for 2 s and exits 1: today's primary took that for a bad first start
      await eventuallyAsync(() => logLines(service.output, /^worker 2 exited \(code 1\)/).length > 0 || logLines(service.output, /stopping every worker$/).length > 0, 90_000, `the restart failing at start-up:\n${service.output.slice(-4000)}`)
      expect(logLines(service.output, /stopping every worker$/), service.output.slice(-4000)).toEqual([])
      expect(logLines(service.output, /^worker 2 exited \(code 1\): restarting it$/)[0]).toMatchObject({ worker: 2, code: 1 })
      expect(service.output).toContain('cannot reach ClickHouse')

      await proxy.clear()
      await eventuallyAsync(() => consuming(2) === 2 || service.output.includes('stopping'), 120_000, `worker 2 consuming again:\n${service.output.slice(-4000)}`)
      expect(consuming(2), service.output.slice(-4000)).toBe(2)
      // worker 1 ran through the outage: started once, never exited
      expect(consuming(1)).toBe(1)
      expect(logLines(service.output, /^worker 1 (exited|forked)/).map((e) => e['msg'])).toEqual(['worker 1 forked'])

      // the primary alone, as a supervisor signals it: it stops its workers
      process.kill(first?.['pid'] as number, 'SIGTERM')
      expect((await service.exited).code, service.output.slice(-3000)).toBe(0)
    } finally {
      await proxy.clear()
      await service.stop()
    }
  }, 300_000)
})
