import cluster from 'node:cluster'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runCli } from '../../../src/cli/cli.js'
import { workerLink } from '../../../src/cli/start/workers/worker-link.js'
import type { IngestProcess } from '../../../src/composition/create-dev-stats-ingest.js'
import { restartAttempt, restartDelayMs } from '../../../src/cli/start/workers/restart-delay.js'
import { workersReadiness } from '../../../src/cli/start/workers/workers-readiness.js'
import { refuseUnshared, workerCount, workersSetting } from '../../../src/cli/start/workers/workers-setting.js'
import { ConfigError } from '../../../src/index.js'

// `dev-stats-ingest start --workers N`: the setting, the count `auto` gives, the restart back-off
// the one readiness of N workers and which worker runs the periodic passes. Nothing here forks:
// every case is refused before that, and a worker's link is seen from inside the test's process.
const captured = () => {
  const err: string[] = []
  vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
  vi.spyOn(process.stderr, 'write').mockImplementation((s) => (err.push(String(s)), true))
  return { err: () => err.join('') }
}

describe('--workers and DEV_STATS_WORKERS', () => {
  afterEach(() => vi.restoreAllMocks())

  it.each([
    [undefined, {}, { workers: 1, from: 'DEV_STATS_WORKERS' }],
    [undefined, { DEV_STATS_WORKERS: ' ' }, { workers: 1, from: 'DEV_STATS_WORKERS' }],
    [undefined, { DEV_STATS_WORKERS: '3' }, { workers: 3, from: 'DEV_STATS_WORKERS' }],
    [undefined, { DEV_STATS_WORKERS: 'auto' }, { workers: 'auto', from: 'DEV_STATS_WORKERS' }],
    ['2', {}, { workers: 2, from: '--workers' }],
    ['64', {}, { workers: 64, from: '--workers' }],
    ['auto', { DEV_STATS_WORKERS: '3' }, { workers: 'auto', from: '--workers' }],
    ['1', { DEV_STATS_WORKERS: 'many' }, { workers: 1, from: '--workers' }],
  ])('flag %j with %j is %j: the flag wins over the environment', (flag, env, expected) => {
    expect(workersSetting(flag, env)).toEqual(expected)
  })

  it.each([['0'], ['-1'], ['65'], ['1.5'], ['two'], [''], ['Auto']])('--workers %j is refused naming the flag and its range', (bad) => {
    expect(() => workersSetting(bad, {})).toThrow(new ConfigError('--workers', `must be a whole number 1-64 or auto, got "${bad}"`))
    expect(() => workersSetting(undefined, { DEV_STATS_WORKERS: bad || '0' })).toThrow(/DEV_STATS_WORKERS must be a whole number 1-64 or auto/)
  })

  it('auto: one worker a CPU, no more than the largest partition count, at least one', () => {
    const auto = { workers: 'auto', from: '--workers' } as const
    expect(workerCount(auto, 8, 6)).toBe(6)
    expect(workerCount(auto, 2, 6)).toBe(2)
    expect(workerCount(auto, 1, 6)).toBe(1)
    expect(workerCount(auto, 4, 0)).toBe(1)
    expect(workerCount({ workers: 3, from: '--workers' }, 1, 1)).toBe(3)
  })

  it('more than one worker needs Kafka and a ClickHouse server, which the workers share', () => {
    const setting = { workers: 2, from: '--workers' } as const
    expect(() => refuseUnshared(setting, { broker: 'kafkajs', store: 'clickhouse' })).not.toThrow()
    expect(() => refuseUnshared(setting, { broker: 'confluent', store: 'clickhouse' })).not.toThrow()
    for (const bad of [{ broker: 'memory', store: 'clickhouse' }, { broker: 'kafkajs', store: 'memory' }, { broker: 'kafkajs', store: 'embedded' }] as const) {
      expect(() => refuseUnshared(setting, bad)).toThrow(/--workers above 1 needs DEV_STATS_BROKER kafkajs or confluent and DEV_STATS_STORE clickhouse/)
    }
  })

  it.each([
    [['start', '--workers', '0'], {}, '--workers must be a whole number 1-64 or auto, got "0"'],
    [['start', '--workers', 'x'], {}, '--workers must be a whole number 1-64 or auto, got "x"'],
    [['start'], { DEV_STATS_WORKERS: '-2' }, 'DEV_STATS_WORKERS must be a whole number 1-64 or auto, got "-2"'],
    [['start', '--workers', '2'], {}, '--workers above 1 needs DEV_STATS_BROKER kafkajs or confluent and DEV_STATS_STORE clickhouse'],
    [['start', '--workers', '2'], { DEV_STATS_BROKER: 'kafkajs', DEV_STATS_STORE: 'clickhouse', DEV_STATS_BATCH_MAX_ROWS: 'x' }, 'DEV_STATS_BATCH_MAX_ROWS must be a whole number'],
  ])('start %j with %j exits 2 before anything starts', async (argv, env, message) => {
    const io = captured()
    expect(await runCli(argv, env)).toBe(2)
    expect(io.err()).toContain(message)
  })

  it('check names an invalid DEV_STATS_WORKERS', async () => {
    const out: string[] = []
    vi.spyOn(process.stdout, 'write').mockImplementation((s) => (out.push(String(s)), true))
    expect(await runCli(['check'], { DEV_STATS_WORKERS: '0' })).toBe(1)
    expect(out.join('')).toMatch(/^FAIL {2}settings .*DEV_STATS_WORKERS must be a whole number 1-64 or auto, got "0"/m)
  })
})

describe('a worker that dies is restarted', () => {
  it('after 1 s, doubling to 30 s while it keeps dying within a minute, 1 s again after a longer run', () => {
    const delays: number[] = []
    let attempt: number | undefined
    for (let i = 0; i < 8; i++) delays.push(restartDelayMs((attempt = restartAttempt(attempt, 2_000))))
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000])
    expect(restartDelayMs(restartAttempt(attempt, 60_000))).toBe(1000)
  })
})

describe('the one readiness of N workers', () => {
  it('is ready when every worker is; each reason names its worker', () => {
    const ready = { ready: true, reasons: [] }
    expect(workersReadiness([ready, ready])).toEqual(ready)
    expect(workersReadiness([ready, { ready: false, reasons: ['session-ended: has not joined its consumer group'] }, { ready: false, reasons: ['not running (restarting)'] }])).toEqual({
      ready: false,
      reasons: ['worker 2: session-ended: has not joined its consumer group', 'worker 3: not running (restarting)'],
    })
  })
})

describe('the periodic passes of N workers', () => {
  const lags = [{ topic: 't', partition: 0, end: 5, committed: 2, lag: 3 }]
  const asWorker = (index: number) => {
    vi.spyOn(cluster, 'isWorker', 'get').mockReturnValue(true)
    return workerLink({ INGEST_WORKER_INDEX: String(index) })
  }
  afterEach(() => vi.restoreAllMocks())

  it('run in worker 1, which passes its lag reads on; the others run none', () => {
    expect(asWorker(1)?.passes).toMatchObject({ here: true, lagReads: expect.any(Object) })
    expect(asWorker(2)?.passes).toEqual({ here: false, lagReads: undefined })
  })

  it('another worker hands the lag reads the primary passes on to its ingest', () => {
    const before = process.listeners('message')
    const observed: unknown[] = []
    asWorker(2)?.attach({ lagRead: { observed: (...read: unknown[]) => void observed.push(read) } } as unknown as IngestProcess)
    try {
      process.emit('message', { type: 'dev-stats:lag', consumer: 'session-ended', lags, readFrom: 1234 }, undefined)
      expect(observed).toEqual([['session-ended', lags, 1234]])
    } finally {
      for (const l of process.listeners('message')) if (!before.includes(l)) process.off('message', l)
    }
  })
})
