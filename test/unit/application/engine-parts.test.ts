import { describe, expect, it } from 'vitest'
import { insertIsolating } from '../../../src/application/engine/isolating-insert.js'
import { Abandoned, StopAwareRetry } from '../../../src/application/engine/retry-loop.js'
import { PortError } from '../../../src/application/ports/retriable.js'

const refusing = (bad: ReadonlySet<number>, calls: number[][]) => async (units: readonly number[]) => {
  calls.push([...units])
  if (units.some((u) => bad.has(u))) throw new PortError('refused', false)
}

describe('insertIsolating', () => {
  it.each([
    [[], []],
    [[3], [3]],
    [[0], [0]],
    [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
    [[17, 500, 999], [17, 500, 999]],
  ])('refusing %o of 0..999 returns exactly those, in order', async (badList, expected) => {
    const calls: number[][] = []
    const units = badList.length === 1 && badList[0] === 3 ? [3] : Array.from({ length: 1000 }, (_, i) => i)
    const rejected = await insertIsolating(units, refusing(new Set(badList), calls))
    expect(rejected.map((r) => r.unit)).toEqual(expected)
    const inserted = calls.filter((c) => !c.some((u) => badList.includes(u))).flat().sort((a, b) => a - b)
    expect(inserted).toEqual(units.filter((u) => !badList.includes(u)))
  })

  it('a retriable error is not isolated: it propagates for the whole batch to be retried', async () => {
    const down = new PortError('down', true)
    await expect(insertIsolating([1, 2, 3], async () => { throw down })).rejects.toBe(down)
  })
})

describe('StopAwareRetry', () => {
  const hooksLog = () => {
    const log: string[] = []
    return { log, hooks: { failed: (w: string, _e: unknown, a: number, d: number | undefined) => log.push(`failed ${w} ${a} ${d ?? 'give-up'}`), settled: (w: string) => log.push(`settled ${w}`) } }
  }

  it('retries with backoff until the work succeeds, then settles', async () => {
    const { log, hooks } = hooksLog()
    let n = 0
    const r = new StopAwareRetry({ initialMs: 1, maxMs: 4 }, hooks)
    expect(await r.run('x', async () => (++n < 4 ? Promise.reject(new Error('no')) : 'ok'))).toBe('ok')
    expect(log).toEqual(['failed x 1 1', 'failed x 2 2', 'failed x 3 4', 'settled x'])
  })

  it('gives up at once on an error giveUp names, and rethrows it', async () => {
    const { log, hooks } = hooksLog()
    const refused = new PortError('refused', false)
    await expect(new StopAwareRetry({ initialMs: 1, maxMs: 1 }, hooks).run('x', async () => { throw refused }, (e) => e === refused)).rejects.toBe(refused)
    expect(log).toEqual(['failed x 1 give-up'])
  })

  // Issue 36.3: with ClickHouse silent, a stop waited one request timeout for a lookup and then
  // another for the open batch's insert.
  it('once a try failed while stopping, later work is abandoned without being tried', async () => {
    const { hooks } = hooksLog()
    const r = new StopAwareRetry({ initialMs: 1, maxMs: 1 }, hooks)
    r.stop()
    expect(await r.run('healthy', async () => 'ok')).toBe('ok')
    await expect(r.run('lookup', async () => { throw new Error('timeout') })).rejects.toBeInstanceOf(Abandoned)
    let tried = false
    await expect(r.run('insert', async () => void (tried = true))).rejects.toBeInstanceOf(Abandoned)
    expect(tried).toBe(false)
  })

  it('stop() cuts a long backoff short and the loop throws Abandoned', async () => {
    const { hooks } = hooksLog()
    const r = new StopAwareRetry({ initialMs: 60_000, maxMs: 60_000 }, hooks)
    const started = Date.now()
    const run = r.run('x', async () => { throw new Error('down') })
    setTimeout(() => r.stop(), 20)
    await expect(run).rejects.toBeInstanceOf(Abandoned)
    expect(Date.now() - started).toBeLessThan(2000)
  })
})
