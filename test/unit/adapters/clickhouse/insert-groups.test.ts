import { describe, expect, it } from 'vitest'
import { InsertGroups } from '../../../../src/adapters/clickhouse/insert-groups.js'
import { StoreError } from '../../../../src/application/ports/store-error.js'

/**
 * A recording sender: each call's table and bodies; `refuse` fails a call carrying that body as the
 * server refuses a row (not retriable), `failure` fails every call with it, `hold` keeps calls open
 * until released.
 */
class Sender {
  readonly calls: { table: string; bodies: string[] }[] = []
  refuse = new Set<string>()
  failure: Error | undefined
  private held: (() => void)[] = []
  hold = false

  readonly send = async (table: string, chunks: readonly (string | Uint8Array)[]) => {
    const bodies = chunks.map((c) => (typeof c === 'string' ? c : Buffer.from(c).toString()))
    this.calls.push({ table, bodies })
    if (this.hold) await new Promise<void>((r) => this.held.push(r))
    const refused = bodies.find((b) => this.refuse.has(b))
    if (refused) throw new StoreError(`refused ${refused}`, false, 'CLICKHOUSE_27')
    if (this.failure) throw this.failure
  }

  release(): void {
    this.hold = false
    for (const r of this.held.splice(0)) r()
  }
}

const settled = (p: Promise<void>) => p.then(() => 'ok', (e: Error) => e.message)

describe('InsertGroups', () => {
  it('sends the bodies handed in within one turn as one insert, in order', async () => {
    const s = new Sender()
    const groups = new InsertGroups(s.send)
    await Promise.all(['a\n', 'b\n', 'c\n'].map((b) => groups.insert('funnel_events', b)))
    expect(s.calls).toEqual([{ table: 'funnel_events', bodies: ['a\n', 'b\n', 'c\n'] }])
  })

  it('sends what came while an insert ran as one insert once it returned, and only then settles those callers', async () => {
    const s = new Sender()
    const groups = new InsertGroups(s.send)
    s.hold = true
    const first = groups.insert('t', Buffer.from('1\n'))
    await new Promise((r) => setImmediate(r))
    let laterDone = false
    const later = Promise.all([groups.insert('t', '2\n'), groups.insert('t', '3\n')]).then(() => (laterDone = true))
    await new Promise((r) => setTimeout(r, 20))
    expect(s.calls).toHaveLength(1)
    expect(laterDone).toBe(false)
    s.release()
    await Promise.all([first, later])
    expect(s.calls.map((c) => c.bodies)).toEqual([['1\n'], ['2\n', '3\n']])
  })

  it('keeps tables apart', async () => {
    const s = new Sender()
    const groups = new InsertGroups(s.send)
    await Promise.all([groups.insert('a', '1\n'), groups.insert('b', '2\n'), groups.insert('a', '3\n')])
    expect(s.calls).toEqual([{ table: 'a', bodies: ['1\n', '3\n'] }, { table: 'b', bodies: ['2\n'] }])
  })

  it('starts another group past the byte bound', async () => {
    const s = new Sender()
    const groups = new InsertGroups(s.send, 5)
    await Promise.all(['aa\n', 'b\n', 'cc\n'].map((b) => groups.insert('t', b)))
    expect(s.calls.map((c) => c.bodies)).toEqual([['aa\n', 'b\n'], ['cc\n']])
  })

  it('sends a refused group again body by body: each caller gets the outcome of its own rows', async () => {
    const s = new Sender()
    s.refuse.add('bad\n')
    const groups = new InsertGroups(s.send)
    const outcomes = await Promise.all(['a\n', 'bad\n', 'c\n'].map((b) => settled(groups.insert('t', b))))
    expect(outcomes).toEqual(['ok', 'refused bad\n', 'ok'])
    expect(s.calls.map((c) => c.bodies)).toEqual([['a\n', 'bad\n', 'c\n'], ['a\n'], ['bad\n'], ['c\n']])
  })

  it('fails a lone caller with its own error, once', async () => {
    const s = new Sender()
    s.refuse.add('bad\n')
    const groups = new InsertGroups(s.send)
    expect(await settled(groups.insert('t', 'bad\n'))).toBe('refused bad\n')
    expect(s.calls).toHaveLength(1)
    expect(await settled(groups.insert('t', 'ok\n'))).toBe('ok')
  })

  it('fails every caller of a group at once on a transient failure, sending nothing again: each engine retries its own batch', async () => {
    const s = new Sender()
    s.failure = new StoreError('connect ECONNREFUSED 127.0.0.1:8123', true, 'ECONNREFUSED')
    const groups = new InsertGroups(s.send)
    const outcomes = await Promise.all(['a\n', 'b\n', 'c\n'].map((b) => settled(groups.insert('t', b))))
    expect(outcomes).toEqual(Array(3).fill('connect ECONNREFUSED 127.0.0.1:8123'))
    expect(s.calls).toHaveLength(1)
    s.failure = undefined
    expect(await settled(groups.insert('t', 'a\n'))).toBe('ok')
  })

  it('on a silent server, a group of 16 costs one request timeout, not 17', async () => {
    const timeoutMs = 50
    const calls: number[] = []
    const groups = new InsertGroups(async (_table, chunks) => {
      calls.push(chunks.length)
      await new Promise((r) => setTimeout(r, timeoutMs))
      throw new StoreError('Timeout error.', true, 'TRANSPORT')
    })
    const started = performance.now()
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => settled(groups.insert('t', `${i}\n`))))
    expect(outcomes).toEqual(Array(16).fill('Timeout error.'))
    expect(calls).toEqual([16])
    expect(performance.now() - started).toBeLessThan(5 * timeoutMs)
  })

  it('stops sending body by body once the server fails for a reason not the rows\': the rest fail at once', async () => {
    const s = new Sender()
    s.refuse.add('bad\n')
    const groups = new InsertGroups(async (table, chunks) => {
      // the server goes away right after refusing the group
      if (s.calls.length === 1) s.failure = new StoreError('socket hang up', true, 'ECONNRESET')
      await s.send(table, chunks)
    })
    const outcomes = await Promise.all(['a\n', 'bad\n', 'c\n'].map((b) => settled(groups.insert('t', b))))
    expect(outcomes).toEqual(Array(3).fill('socket hang up'))
    expect(s.calls.map((c) => c.bodies)).toEqual([['a\n', 'bad\n', 'c\n'], ['a\n']])
  })
})
