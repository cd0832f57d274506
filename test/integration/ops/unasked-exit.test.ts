import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { isolatedDeployment } from '../../support/deployment.js'
import { freePort, until } from '../../support/http.js'
import { NpmStart, npmRun } from '../../support/npm-script.js'
import { removeRunResources } from '../../support/run-resources.js'

// Issue 66: exit 0 belongs to a stop that was asked for. `npm start` on the real broker and
// ClickHouse server; a preloaded file makes the service call process.exit(0) on SIGUSR2 (what a
// library ending the process would do): it exits 1 and says why. SIGTERM still exits 0.
const PRELOAD = fileURLToPath(new URL('../../support/exit-on-sigusr2.mjs', import.meta.url))
const topics: string[] = []
const databases: string[] = []
afterAll(() => removeRunResources(topics, databases))

const consumingService = async (name: string): Promise<{ service: NpmStart; pid: number }> => {
  const d = isolatedDeployment('kafkajs', name, { DEV_STATS_HTTP_PORT: String(await freePort()), NODE_OPTIONS: `--import=${PRELOAD}` })
  topics.push(...d.topics)
  databases.push(d.database)
  expect(npmRun(['migrate'], d.env).code).toBe(0)
  const provisioned = npmRun(['topics'], d.env)
  expect(provisioned.code, provisioned.output).toBe(0)
  const service = new NpmStart(d.env)
  await until('consuming', async () => service.logLine(/^consuming from/) !== undefined, 90_000, 200).catch((e) => {
    throw new Error(`${String(e)}\n${service.output.slice(-3000)}`)
  })
  return { service, pid: Number(service.logLine(/^consuming from/)?.['pid']) }
}

describe('npm start: exit 0 only after a stop request (issue 66)', () => {
  it('a process.exit(0) nobody asked for ends in exit 1, said on stderr', async () => {
    const { service, pid } = await consumingService('unasked-exit')
    try {
      process.kill(pid, 'SIGUSR2')
      const exit = await service.exited
      expect(exit, service.output.slice(-2000)).toEqual({ code: 1, signal: null })
      expect(service.output).toContain('dev-stats ingest: exiting with code 0 without a stop request (SIGTERM or SIGINT): exit 1 instead')
    } finally {
      await service.kill()
    }
  })

  it('SIGTERM stops it with exit 0, nothing said', async () => {
    const { service } = await consumingService('asked-exit')
    await service.stop()
    expect(await service.exited, service.output.slice(-2000)).toEqual({ code: 0, signal: null })
    expect(service.output).not.toContain('without a stop request')
  })
})
