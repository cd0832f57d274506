import * as E from 'fp-ts/lib/Either.js'
import type { UpperLevel } from '../../domain/dimension-upsert.js'
import type { Guid } from '../../domain/guid.js'
import type { HierarchyFilter, ReadModel } from '../ports/read-model.port.js'
import { accessDenied, type AccessDenied, type DeveloperActor } from './actor.js'

/** One level of what a funnel is about, with its display name (null when the dimension has none yet). */
export interface ScopeLevel {
  readonly level: UpperLevel
  readonly id: Guid
  readonly name: string | null
}

const FILTER_LEVELS: readonly (readonly [keyof HierarchyFilter, UpperLevel])[] = [
  ['projectId', 'project'],
  ['buildingId', 'building'],
  ['layoutGroupId', 'layout-group'],
  ['layoutId', 'layout'],
]

/** The names of the funnel's developer and of each level its filter narrows to, from the dim_* replicas. */
export const getFunnelScope =
  (readModel: ReadModel) =>
  async (actor: DeveloperActor | null | undefined, filter: HierarchyFilter = {}): Promise<E.Either<AccessDenied, readonly ScopeLevel[]>> => {
    if (!actor?.developerId) return E.left(accessDenied)
    const wanted: [UpperLevel, Guid][] = [['developer', actor.developerId]]
    for (const [key, level] of FILTER_LEVELS) {
      const id = filter[key]
      if (id !== undefined) wanted.push([level, id])
    }
    const named = await Promise.all(
      wanted.map(async ([level, id]) => ({ level, id, name: (await readModel.dimensionNames(level, [id])).get(id) ?? null })),
    )
    return E.right(named)
  }
