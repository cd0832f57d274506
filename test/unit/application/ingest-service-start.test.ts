import { describe, expect, it } from 'vitest'
import type { ConsumerEngine } from '../../../src/application/engine/consumer-engine.js'
import { IngestService } from '../../../src/application/ingest-service.js'

/** An engine whose start resolves (or rejects) only when the test says so. */
const engine = (name: string) => {
  let settle: { resolve: () => void; reject: (e: Error) => void } | undefined
  const fake = {
    name,
    topics: { source: name, deadLetter: `${name}.dlq`, retry: `${name}.retry` },
    start: () => new Promise<void>((resolve, reject) => void (settle = { resolve, reject })),
    stop: async () => undefined,
  }
  return { engine: fake as unknown as ConsumerEngine, started: () => settle !== undefined, settle: () => settle! }
}

describe('IngestService start', () => {
  it('every engine joins at once; start resolves when all joined, each with its own join time', async () => {
    const a = engine('a')
    const b = engine('b')
    const service = new IngestService([a.engine, b.engine])
    const start = service.start()
    await Promise.resolve()
    expect([a.started(), b.started()]).toEqual([true, true])
    b.settle().resolve()
    await new Promise((r) => setImmediate(r))
    expect([service.joinedAt('a'), typeof service.joinedAt('b')]).toEqual([undefined, 'number'])
    a.settle().resolve()
    await start
    expect(typeof service.joinedAt('a')).toBe('number')
  })

  it('a failed engine fails the start with its error once every engine settled; the others stay joined', async () => {
    const a = engine('a')
    const b = engine('b')
    const service = new IngestService([a.engine, b.engine])
    const start = service.start()
    let failed: unknown
    start.catch((e: unknown) => void (failed = e))
    await Promise.resolve()
    a.settle().reject(new Error('join failed'))
    await new Promise((r) => setImmediate(r))
    expect(failed).toBeUndefined()
    b.settle().resolve()
    await expect(start).rejects.toThrow('join failed')
    expect(typeof service.joinedAt('b')).toBe('number')
  })
})
