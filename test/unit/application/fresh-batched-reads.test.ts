import { describe, expect, it } from 'vitest'
import { freshBatchedReads } from '../../../src/application/read/fresh-batched-reads.js'

describe('fresh batched reads', () => {
  const deferred = () => {
    let resolve!: (v: ReadonlyMap<string, number>) => void
    let reject!: (e: Error) => void
    const promise = new Promise<ReadonlyMap<string, number>>((res, rej) => ((resolve = res), (reject = rej)))
    return { promise, resolve, reject }
  }

  it('gives each caller a call started after its own; callers arriving meanwhile share the next call, with all their keys', async () => {
    const calls: { keys: string[]; d: ReturnType<typeof deferred> }[] = []
    const read = freshBatchedReads((keys: ReadonlySet<string>) => {
      const d = deferred()
      calls.push({ keys: [...keys], d })
      return d.promise
    })
    const a = read('a')
    const b = read('b')
    const c = read('c')
    const a2 = read('a')
    expect(calls.map((c) => c.keys)).toEqual([['a']])
    calls[0]?.d.resolve(new Map([['a', 1]]))
    expect(await a).toBe(1)
    await new Promise((r) => setImmediate(r))
    expect(calls.map((c) => c.keys)).toEqual([['a'], ['b', 'c', 'a']])
    calls[1]?.d.resolve(new Map([['a', 2], ['b', 20], ['c', 30]]))
    expect([await b, await c, await a2]).toEqual([20, 30, 2])
    const d = read('d')
    expect(calls).toHaveLength(3)
    calls[2]?.d.resolve(new Map())
    expect(await d).toBeUndefined()
  })

  it('passes a failure to the callers of that call and starts afresh after it', async () => {
    const calls: ReturnType<typeof deferred>[] = []
    const read = freshBatchedReads(() => {
      const d = deferred()
      calls.push(d)
      return d.promise
    })
    const first = read('x')
    const second = read('y')
    calls[0]?.reject(new Error('probe failed'))
    await expect(first).rejects.toThrow('probe failed')
    await new Promise((r) => setImmediate(r))
    calls[1]?.resolve(new Map([['y', 7]]))
    expect(await second).toBe(7)
  })
})
