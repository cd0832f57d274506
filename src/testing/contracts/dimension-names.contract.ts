import { describe, expect, it } from 'vitest'
import { UPPER_LEVELS } from '../../domain/dimension-upsert.js'
import type { FactStoreFixture } from './fact-store.contract.js'
import { at, id, upperDimFact } from './fact-rows.mother.js'

const T = at('2026-11-30T10:00:00Z')

/** The five upper dimensions on read: the latest version's name per id, whatever the arrival order. */
export const dimensionNamesContract = (name: string, fresh: () => Promise<FactStoreFixture>): void => {
  describe(`dimension names: ${name}`, () => {
    it.each(UPPER_LEVELS)('%s: argMax by version, a renamed-to-null name is null, an unknown id is absent', async (level) => {
      const f = await fresh()
      const [renamed, unnamed, unknown] = [id(), id(), id()]
      await f.store.append([upperDimFact(level, renamed, T, 'New name'), upperDimFact(level, unnamed, T - 60_000, 'Had a name')], T)
      await f.store.append([upperDimFact(level, renamed, T - 60_000, 'Old name'), upperDimFact(level, unnamed, T, null)], T + 1000)
      const expected = new Map([[renamed, 'New name'], [unnamed, null]])
      expect(await f.readModel.dimensionNames(level, [renamed, unnamed, unknown, renamed])).toEqual(expected)
      await f.forceMerge()
      expect(await f.readModel.dimensionNames(level, [renamed, unnamed, unknown])).toEqual(expected)
      expect(await f.readModel.dimensionNames(level, [])).toEqual(new Map())
    })
  })
}
