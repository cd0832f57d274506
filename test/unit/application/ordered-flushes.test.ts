import { describe, expect, it } from 'vitest'
import { OrderedFlushes } from '../../../src/application/engine/ordered-flushes.js'

const deferred = () => {
  let resolve!: () => void
  let reject!: (e: unknown) => void
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}
const tick = () => new Promise((r) => setTimeout(r, 0))

describe('OrderedFlushes', () => {
  it('finishes batches in the order they were added, whatever order their durable work completes in', async () => {
    const flushes = new OrderedFlushes(4)
    const finished: number[] = []
    const work = [deferred(), deferred(), deferred()]
    for (const [i, d] of work.entries()) await flushes.add(d.promise, async () => void finished.push(i), () => undefined)
    work[2]?.resolve()
    work[1]?.resolve()
    await tick()
    expect(finished).toEqual([])
    work[0]?.resolve()
    await flushes.settled()
    expect(finished).toEqual([0, 1, 2])
  })

  it('holds the caller while maxInFlight batches are open', async () => {
    const flushes = new OrderedFlushes(2)
    const first = deferred()
    await flushes.add(first.promise, async () => undefined, () => undefined)
    let returned = false
    const second = flushes.add(deferred().promise, async () => undefined, () => undefined).then(() => (returned = true))
    await tick()
    expect(flushes.inFlight).toBe(2)
    expect(returned).toBe(false)
    first.resolve()
    await second
    expect(flushes.inFlight).toBe(1)
  })

  it('a batch whose durable work fails is reported and never finished; later batches still finish in order', async () => {
    const flushes = new OrderedFlushes(3)
    const finished: number[] = []
    const errors: unknown[] = []
    const [a, b] = [deferred(), deferred()]
    await flushes.add(a.promise, async () => void finished.push(0), (e) => void errors.push(e))
    await flushes.add(b.promise, async () => void finished.push(1), (e) => void errors.push(e))
    b.resolve()
    a.reject(new Error('store refused'))
    await flushes.settled()
    expect(finished).toEqual([1])
    expect(errors).toEqual([new Error('store refused')])
  })
})
