import { describe, expect, it } from 'vitest'
import type { DimensionReader, VersionedDimensionReader } from '../../application/ports/dimension-reader.port.js'
import type { FactStore } from '../../application/ports/fact-store.port.js'
import { at, dimFact, dimPath, id } from './fact-rows.mother.js'

/** A DimensionReader over fresh, empty data, and the FactStore that writes its rows. */
export interface DimensionReaderFixture {
  readonly store: FactStore
  readonly dimensions: DimensionReader
}

const T = at('2026-11-30T10:00:00Z')

export const dimensionReaderContract = (name: string, fresh: () => Promise<DimensionReaderFixture>): void => {
  describe(`DimensionReader contract: ${name}`, () => {
    it('the latest version wins; a stale version arriving later is ignored', async () => {
      const f = await fresh()
      const v1 = dimPath()
      const v3 = { ...dimPath(), propertyObjectId: v1.propertyObjectId }
      const v2 = { ...dimPath(), propertyObjectId: v1.propertyObjectId }
      await f.store.append([dimFact(v1, at('2026-11-01T00:00:00Z'))], T)
      await f.store.append([dimFact(v3, at('2026-11-03T00:00:00Z'), null)], T + 1000)
      await f.store.append([dimFact(v2, at('2026-11-02T00:00:00Z'))], T + 2000)
      expect(await f.dimensions.latestPaths([v1.propertyObjectId])).toEqual(new Map([[v1.propertyObjectId, v3]]))
    })

    it('returns each known id once, omits unknown (late) ids, and answers an empty list with an empty map', async () => {
      const f = await fresh()
      const a = dimPath()
      const b = dimPath()
      await f.store.append([dimFact(a, T), dimFact(b, T)], T)
      const unknown = id()
      expect(await f.dimensions.latestPaths([a.propertyObjectId, unknown, b.propertyObjectId, a.propertyObjectId])).toEqual(
        new Map([[a.propertyObjectId, a], [b.propertyObjectId, b]]),
      )
      expect(await f.dimensions.latestPaths([])).toEqual(new Map())
    })

    it('the store moves an object to another developer: the next lookup answers the new path', async () => {
      const f = await fresh()
      const before = dimPath()
      const after = { ...dimPath(), propertyObjectId: before.propertyObjectId }
      await f.store.append([dimFact(before, at('2026-11-01T00:00:00Z'))], T)
      expect(await f.dimensions.latestPaths([before.propertyObjectId])).toEqual(new Map([[before.propertyObjectId, before]]))
      await f.store.append([dimFact(after, at('2026-11-02T00:00:00Z'))], T + 1000)
      expect(await f.dimensions.latestPaths([before.propertyObjectId])).toEqual(new Map([[before.propertyObjectId, after]]))
    })
  })
}

/** A reader that tells versions (the store's own: what the dimension cache sits on). */
export const versionedDimensionReaderContract = (name: string, fresh: () => Promise<DimensionReaderFixture & { readonly dimensions: VersionedDimensionReader }>): void => {
  describe(`VersionedDimensionReader contract: ${name}`, () => {
    it('answers the latest path with its version (UpsertedAt in µs), and nothing for an unknown id', async () => {
      const f = await fresh()
      const a = dimPath()
      const newer = { ...dimPath(), propertyObjectId: a.propertyObjectId }
      await f.store.append([dimFact(newer, at('2026-11-02T00:00:00Z')), dimFact(a, at('2026-11-01T00:00:00Z'))], T)
      expect(await f.dimensions.latestVersionedPaths([a.propertyObjectId, id()])).toEqual(
        new Map([[a.propertyObjectId, { path: newer, version: at('2026-11-02T00:00:00Z') * 1000 }]]),
      )
    })
  })
}
