import { describe, expect, it } from 'vitest'
import { compareCounts, compareDeadLetters, compareDims, compareSortedKeys, compareStops, compareCrashes } from '../../../bench/soak/checker.js'

// The end check's comparisons against hand-made outcomes: what passes, and each way to fail.
describe('soak end check: facts by key (sorted merge)', () => {
  it('passes when every expected key is found once', async () => {
    const r = await compareSortedKeys('facts', ['a/1', 'b/1', 'c/1'], ['a/1', 'b/1', 'c/1'])
    expect(r).toMatchObject({ expected: 3, found: 3, missing: 0, extra: 0, pass: true })
  })

  it('names a missing fact, a stranger and a fact with the wrong fields (missing + extra)', async () => {
    const r = await compareSortedKeys('facts', ['a/dev1', 'b/dev1', 'c/dev1'], ['a/dev1', 'c/dev2', 'd/dev1'])
    expect(r).toMatchObject({ missing: 2, extra: 2, pass: false })
    expect(r.samples).toEqual(['missing b/dev1', 'missing c/dev1', 'extra c/dev2', 'extra d/dev1'])
  })

  it('reads async streams and refuses one that is not ascending', async () => {
    async function* gen(xs: string[]) {
      yield* xs
    }
    expect((await compareSortedKeys('facts', gen(['a', 'b']), gen(['a', 'b']))).pass).toBe(true)
    await expect(compareSortedKeys('facts', ['b', 'a'], ['a', 'b'])).rejects.toThrow(/not ascending/)
    await expect(compareSortedKeys('facts', ['a', 'b'], ['a', 'a'])).rejects.toThrow(/not ascending/)
  })

  it('an empty run against an empty store passes; anything stored then is extra', async () => {
    expect((await compareSortedKeys('facts', [], [])).pass).toBe(true)
    expect(await compareSortedKeys('facts', [], ['x'])).toMatchObject({ extra: 1, pass: false })
  })
})

describe('soak end check: funnel counts', () => {
  it('compares uniq counts per group; zero counts are absent groups', () => {
    const want = [{ group: 'po1/2026-11-30/Views', count: 3 }, { group: 'po2/2026-11-30/Leads', count: 1 }]
    expect(compareCounts('funnel', want, [...want, { group: 'po1/2026-11-30/Deals', count: 0 }]).pass).toBe(true)
    const r = compareCounts('funnel', want, [{ group: 'po1/2026-11-30/Views', count: 4 }, { group: 'po3/2026-11-30/Views', count: 1 }])
    expect(r).toMatchObject({ missing: 1, extra: 1, wrong: 1, pass: false })
  })
})

describe('soak end check: dimensions by argMax', () => {
  const d = (id: string, name: string, version: number) => ({ table: 'dim_project', id, name, version })
  it('wants the latest name and version of every id, nothing else', () => {
    expect(compareDims('dims', [d('p1', 'v2', 2)], [d('p1', 'v2', 2)]).pass).toBe(true)
    expect(compareDims('dims', [d('p1', 'v2', 2)], [d('p1', 'v1', 1)])).toMatchObject({ wrong: 1, pass: false })
    expect(compareDims('dims', [d('p1', 'v2', 2), d('p2', 'a', 1)], [d('p1', 'v2', 2), d('p3', 'b', 1)])).toMatchObject({ missing: 1, extra: 1, pass: false })
  })
})

describe('soak end check: dead letters', () => {
  const dl = (seq: number, reason: string, consumer = 'SESSION_ENDED') => ({ seq, reason, consumer })
  it('every poison record with its reason passes; a second copy is counted, not failed', () => {
    const r = compareDeadLetters('dlq', [dl(1, 'undecodable'), dl(2, 'dimension-gap', 'FAVORITES')], [dl(1, 'undecodable'), dl(1, 'undecodable'), dl(2, 'dimension-gap', 'FAVORITES')])
    expect(r).toMatchObject({ pass: true, note: '1 dead-lettered more than once' })
  })

  it('fails on a missing one, a wrong reason or topic, and a record that should not be there', () => {
    expect(compareDeadLetters('dlq', [dl(1, 'undecodable')], [])).toMatchObject({ missing: 1, pass: false })
    expect(compareDeadLetters('dlq', [dl(1, 'undecodable')], [dl(1, 'empty-id')])).toMatchObject({ wrong: 1, pass: false })
    expect(compareDeadLetters('dlq', [dl(1, 'undecodable')], [dl(1, 'undecodable', 'VIEW_ENDED')])).toMatchObject({ wrong: 1, pass: false })
    expect(compareDeadLetters('dlq', [], [dl(7, 'dimension-gap')])).toMatchObject({ extra: 1, pass: false })
  })
})

describe('soak end check: SIGTERM stops', () => {
  const stop = (code: number | null, brokerDown: boolean) => ({ label: 'i0', code, signal: code === null ? 'SIGKILL' : null, seconds: 2, brokerDown })
  it('wants exit 0; an unclean stop is tolerated only while the broker was down', () => {
    expect(compareStops([stop(0, false), stop(0, true)]).pass).toBe(true)
    expect(compareStops([stop(null, true)])).toMatchObject({ pass: true, found: 0 })
    expect(compareStops([stop(1, false)])).toMatchObject({ pass: false, wrong: 1 })
  })

  it('tolerates exit 1 at the stop deadline only while a wire fault held, never a SIGKILL', () => {
    expect(compareStops([{ ...stop(1, false), deadline: true, wireFault: true }])).toMatchObject({ pass: true, found: 0 })
    expect(compareStops([{ ...stop(1, false), deadline: true, wireFault: false }])).toMatchObject({ pass: false, wrong: 1 })
    expect(compareStops([{ ...stop(1, false), deadline: false, wireFault: true }])).toMatchObject({ pass: false, wrong: 1 })
    expect(compareStops([{ ...stop(null, false), deadline: true, wireFault: true }])).toMatchObject({ pass: false, wrong: 1 })
  })
})

describe('soak end check: crashes', () => {
  it('fails on any instance that exited on its own', () => {
    expect(compareCrashes([]).pass).toBe(true)
    expect(compareCrashes(['i1 confluent #1 exited on its own (SIGSEGV) at 75 s'])).toMatchObject({ extra: 1, pass: false })
  })
})
