import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { CachedDimensionReader } from '../../../../src/adapters/cache/cached-dimension-reader.js'
import type { VersionedDimensionReader, VersionedPath } from '../../../../src/application/ports/dimension-reader.port.js'
import type { FactRow } from '../../../../src/domain/fact-row.js'
import type { DimensionPath } from '../../../../src/domain/dimension-path.js'
import type { Guid } from '../../../../src/domain/guid.js'
import type { Instant } from '../../../../src/domain/instant.js'
import { dimFact } from '../../../../src/testing/contracts/fact-rows.mother.js'

const OBJECTS = ['a', 'b', 'c'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000` as Guid)
const DEVELOPERS = ['1', '2', '3', '4'].map((c) => `${c.repeat(8)}-0000-4000-8000-000000000000` as Guid)
const MAX_AGE_MS = 10_000

const pathOf = (propertyObjectId: Guid, developerId: Guid): DimensionPath => ({
  developerId, projectId: developerId, buildingId: developerId, layoutGroupId: developerId, layoutId: developerId, propertyObjectId,
})

/** dim_property_object as a store keeps it: every version appended, argMax by version on read; counts the ids asked. */
const fakeStore = () => {
  const rows: { path: DimensionPath; version: number; at: number }[] = []
  const asked: Guid[][] = []
  const latest = (id: Guid, before = Infinity): VersionedPath | undefined =>
    rows.filter((r) => r.path.propertyObjectId === id && r.at <= before).reduce<VersionedPath | undefined>((best, r) => (best && best.version >= r.version ? best : r), undefined)
  const reader: VersionedDimensionReader = {
    latestPaths: async () => new Map(),
    latestVersionedPaths: async (ids) => {
      asked.push([...ids])
      const found = new Map<Guid, VersionedPath>()
      for (const id of ids) {
        const l = latest(id)
        if (l) found.set(id, { path: l.path, version: l.version })
      }
      return found
    },
  }
  return { rows, asked, latest, reader }
}

const setup = (maxEntries = 100) => {
  const clock = { t: 1_000_000 }
  const store = fakeStore()
  const cache = new CachedDimensionReader(store.reader, { now: () => clock.t as Instant }, { maxEntries, maxAgeMs: MAX_AGE_MS })
  // what this process's property-object consumer does: insert, then (acknowledged) tell the cache
  const facts = cache.feeding({
    append: async (appended: readonly FactRow[]) => {
      for (const f of appended) {
        if (f.table !== 'dim_property_object') continue
        const { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId, version } = f.row
        store.rows.push({ path: { developerId, projectId, buildingId, layoutGroupId, layoutId, propertyObjectId }, version, at: clock.t })
      }
    },
  })
  const storeHere = (id: Guid, developer: Guid, upsertedAt: number) => facts.append([dimFact(pathOf(id, developer), upsertedAt as Instant)], clock.t as Instant)
  const storeElsewhere = (id: Guid, developer: Guid, upsertedAt: number) => store.rows.push({ path: pathOf(id, developer), version: upsertedAt * 1000, at: clock.t })
  return { clock, store, cache, storeHere, storeElsewhere }
}

const [A, B, C] = OBJECTS as [Guid, Guid, Guid]
const [D1, D2] = DEVELOPERS as [Guid, Guid]

describe('CachedDimensionReader', () => {
  it('asks the store once for paths it confirmed within the maximum age, then again', async () => {
    const { clock, store, cache, storeElsewhere } = setup()
    storeElsewhere(A, D1, 1)
    storeElsewhere(B, D1, 1)
    expect((await cache.latestPaths([A, B])).get(A)?.developerId).toBe(D1)
    clock.t += MAX_AGE_MS - 1
    expect((await cache.latestPaths([A, B, A])).get(B)?.developerId).toBe(D1)
    expect(store.asked).toEqual([[A, B]])
    clock.t += 1
    await cache.latestPaths([A])
    expect(store.asked).toEqual([[A, B], [A]])
  })

  it('never keeps an absent id: a late dimension is asked for every time', async () => {
    const { store, cache, storeElsewhere } = setup()
    expect((await cache.latestPaths([C])).has(C)).toBe(false)
    storeElsewhere(C, D1, 1)
    expect((await cache.latestPaths([C])).get(C)?.developerId).toBe(D1)
    expect(store.asked).toEqual([[C], [C]])
  })

  it('answers a version this process stored at once, without asking, and never an older one after it', async () => {
    const { store, cache, storeHere } = setup()
    await storeHere(A, D1, 5)
    await cache.latestPaths([A])
    await storeHere(A, D2, 9)
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D2)
    await storeHere(A, D1, 7) // an older version arriving late: the store's argMax keeps 9
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D2)
    expect(store.asked).toEqual([[A]])
  })

  it('asks the store about an id this process stored before any lookup of it (another instance may have stored a newer one)', async () => {
    const { store, cache, storeHere, storeElsewhere } = setup()
    storeElsewhere(A, D2, 9)
    await storeHere(A, D1, 5)
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D2)
    expect(store.asked).toEqual([[A]])
  })

  it('keeps a version stored while a lookup of it was running', async () => {
    const { store, cache, storeHere, storeElsewhere } = setup()
    storeElsewhere(A, D1, 5)
    const ask = store.reader.latestVersionedPaths.bind(store.reader)
    let release: () => void = () => undefined
    const gate = new Promise<void>((r) => (release = r))
    store.reader.latestVersionedPaths = async (ids) => {
      const answer = await ask(ids)
      await gate
      return answer
    }
    const running = cache.latestPaths([A])
    await storeHere(A, D2, 9)
    release()
    expect((await running).get(A)?.developerId).toBe(D2)
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D2)
    expect(store.asked).toEqual([[A]])
  })

  it("sees another instance's version once its entry is older than the maximum age", async () => {
    const { clock, cache, storeHere, storeElsewhere } = setup()
    await storeHere(A, D1, 5)
    await cache.latestPaths([A])
    storeElsewhere(A, D2, 9)
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D1)
    clock.t += MAX_AGE_MS
    expect((await cache.latestPaths([A])).get(A)?.developerId).toBe(D2)
  })

  it('keeps at most maxEntries paths, the least recently used dropped', async () => {
    const { store, cache, storeElsewhere } = setup(2)
    for (const id of [A, B, C]) storeElsewhere(id, D1, 1)
    await cache.latestPaths([A, B])
    await cache.latestPaths([A])
    await cache.latestPaths([C])
    await cache.latestPaths([A, B, C])
    expect(store.asked).toEqual([[A, B], [C], [B]])
  })

  it('passes an insert failure on and keeps nothing of it', async () => {
    const { store, clock } = setup()
    const cache = new CachedDimensionReader(store.reader, { now: () => clock.t as Instant }, { maxEntries: 10, maxAgeMs: MAX_AGE_MS })
    const failing = cache.feeding({ append: async () => Promise.reject(new Error('store down')) })
    await expect(failing.append([dimFact(pathOf(A, D1), 1 as Instant)], 0 as Instant)).rejects.toThrow('store down')
    expect((await cache.latestPaths([A])).has(A)).toBe(false)
  })

  // Any interleaving of stores here and elsewhere, lookups and time: a lookup answers a version at
  // least as new as every one stored more than the maximum age ago, and exactly the store's latest
  // when every version came through this process.
  it('answers the store, or a version no older than the maximum age, under any interleaving', async () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('here' as const), id: fc.constantFrom(...OBJECTS), dev: fc.constantFrom(...DEVELOPERS), at: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('elsewhere' as const), id: fc.constantFrom(...OBJECTS), dev: fc.constantFrom(...DEVELOPERS), at: fc.integer({ min: 1, max: 50 }) }),
      fc.record({ kind: fc.constant('lookup' as const), ids: fc.subarray(OBJECTS, { minLength: 1 }) }),
      fc.record({ kind: fc.constant('wait' as const), ms: fc.integer({ min: 0, max: 2 * MAX_AGE_MS }) }),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), async (ops, maxEntries) => {
        const { clock, store, cache, storeHere, storeElsewhere } = setup(maxEntries)
        const onlyHere = ops.every((o) => o.kind !== 'elsewhere')
        // versions unique per store (ClickHouse's argMax of a tie is any of them)
        for (const [i, o] of ops.entries()) {
          if (o.kind === 'here') await storeHere(o.id, o.dev, o.at * 100 + i)
          else if (o.kind === 'elsewhere') storeElsewhere(o.id, o.dev, o.at * 100 + i)
          else if (o.kind === 'wait') clock.t += o.ms
          else {
            const answer = await cache.latestPaths(o.ids)
            for (const id of o.ids) {
              const latest = store.latest(id)
              const settled = store.latest(id, clock.t - MAX_AGE_MS)
              const got = answer.get(id)
              expect(got === undefined).toBe(latest === undefined)
              if (onlyHere) expect(got).toEqual(latest?.path)
              if (settled) expect(store.rows.some((r) => r.path.propertyObjectId === id && r.path.developerId === got?.developerId && r.version >= settled.version)).toBe(true)
            }
          }
        }
      }),
      { numRuns: 300 },
    )
  })
})
